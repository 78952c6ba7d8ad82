/**
 * Errors the gateway raises itself, with stable codes (STYLE rule 3), and the one 500 body it sends: the
 * spec's shape (error, message, error_id), never a stack trace or an internal message.
 */
import { randomUUID } from 'node:crypto'
import { badRequestBody } from './contract/query.ts'

export const ErrorCodes = {
  CONFIG: 'TL_ERR_CONFIG',
  KEYS_FILE: 'TL_ERR_KEYS_FILE',
  BUDGET_EXHAUSTED: 'TL_ERR_BUDGET_EXHAUSTED',
  UPSTREAM_UNAVAILABLE: 'TL_ERR_UPSTREAM_UNAVAILABLE',
  STORE_UNAVAILABLE: 'TL_ERR_STORE_UNAVAILABLE'
} as const

export type ErrorCode = typeof ErrorCodes[keyof typeof ErrorCodes]

export class AppError extends Error {
  constructor (readonly code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'AppError'
  }
}

export function internalErrorBody (errorId: string = randomUUID()): { error: string, message: string, error_id: string } {
  return { error: 'Internal Server Error', message: 'Something went wrong on our side. Quote the error_id when you report it.', error_id: errorId }
}

/**
 * fastify's own errors for a request it cannot route (a malformed URL, bad percent-encoding) echo the
 * URL, and with it a caller's `api_token`. Answered instead with the spec's 400 shape and no URL.
 */
export function frameworkErrorBody (): { message: string, errors: Record<string, string[]> } {
  return badRequestBody('url', 'The request URL is malformed (invalid percent-encoding or characters).')
}
