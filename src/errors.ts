/**
 * The gateway's own errors: the one catalogue of their stable codes (TL_ERR_*), which every error the
 * gateway raises carries so that callers and log readers branch on the code, never on message text; and
 * the bodies it answers with when a request fails on its side (a 500 in the upstream's shape: error,
 * message, error_id, never a stack trace or an internal message). The upstream's own numeric codes are
 * upstream-contract/query.ts UpstreamInternalCode; the live protocol's error codes are part of the wire model.
 */
import { randomUUID } from 'node:crypto'

export const ErrorCodes = {
  /** A setting (TOUCHLINE_*) is invalid, or the gateway cannot start with it (a port taken, Redis unreachable). */
  CONFIG: 'TL_ERR_CONFIG',
  /** TOUCHLINE_KEYS_FILE cannot be read or is invalid. */
  KEYS_FILE: 'TL_ERR_KEYS_FILE',
  /** The shared store (Redis) cannot be reached. */
  STORE_UNAVAILABLE: 'TL_ERR_STORE_UNAVAILABLE',
  /** A poller write the store refused: this instance no longer holds the poller lease. */
  LEASE_LOST: 'TL_ERR_LEASE_LOST',
  /** The budget ledger refused an upstream call (it would eat into what must stay). */
  BUDGET_REFUSED: 'TL_ERR_BUDGET_REFUSED',
  /** The budget ledger cannot be read, so no upstream call goes out. */
  BUDGET_LEDGER_UNAVAILABLE: 'TL_ERR_BUDGET_LEDGER_UNAVAILABLE',
  // Upstream calls (upstream/upstream-errors.ts): one per status the upstream answers, plus transport failures.
  UPSTREAM_BAD_REQUEST: 'TL_ERR_UPSTREAM_BAD_REQUEST',
  UPSTREAM_UNAUTHORIZED: 'TL_ERR_UPSTREAM_UNAUTHORIZED',
  UPSTREAM_FORBIDDEN: 'TL_ERR_UPSTREAM_FORBIDDEN',
  UPSTREAM_NOT_FOUND: 'TL_ERR_UPSTREAM_NOT_FOUND',
  UPSTREAM_RATE_LIMITED: 'TL_ERR_UPSTREAM_RATE_LIMITED',
  UPSTREAM_SERVER: 'TL_ERR_UPSTREAM_SERVER',
  /** Any other status the client does not expect (3xx, 405, 410, ...). */
  UPSTREAM_HTTP: 'TL_ERR_UPSTREAM_HTTP',
  /** A 2xx whose body is not JSON or not an envelope. */
  UPSTREAM_BAD_RESPONSE: 'TL_ERR_UPSTREAM_BAD_RESPONSE',
  UPSTREAM_TIMEOUT: 'TL_ERR_UPSTREAM_TIMEOUT',
  UPSTREAM_NETWORK: 'TL_ERR_UPSTREAM_NETWORK',
  /** The caller's signal fired or the client was closed. */
  UPSTREAM_ABORTED: 'TL_ERR_UPSTREAM_ABORTED',
  /** A paginated walk did not end within its page cap. */
  UPSTREAM_PAGINATION: 'TL_ERR_UPSTREAM_PAGINATION'
} as const

export type ErrorCode = typeof ErrorCodes[keyof typeof ErrorCodes]

/** Base of every error the gateway raises; subclasses set `name` (what status pages and logs show). */
export class AppError extends Error {
  constructor (readonly code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'AppError'
  }
}

export function internalErrorBody (errorId: string = randomUUID()): { error: string, message: string, error_id: string } {
  return { error: 'Internal Server Error', message: 'Something went wrong on our side. Quote the error_id when you report it.', error_id: errorId }
}
