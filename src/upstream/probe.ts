/**
 * The start-up check of the upstream (docs/settings.md, "Checked at start"): one call before the gateway
 * listens, which tells a wrong setting from an outage. A token the upstream refuses (401, 403) or a base URL
 * whose paths do not exist (404) would fail every poll for as long as the gateway runs, so the start stops,
 * naming the setting and quoting the upstream; an upstream that does not answer (a dead port, a name that
 * does not resolve, a timeout, a 5xx) is an outage, which must not stop a gateway that can serve from Redis:
 * one warning, and the poller retries as always.
 *
 * The call is `GET /my/usage`: every token may make it, it sends no data the gateway would drop, and it is
 * counted in the `Resource` bucket (docs/upstream.md, "Rate limits"), which the gateway never spends
 * otherwise (the passthrough answers every `/my/*` path itself). It is reserved in the budget ledger like
 * every call, and its answer's `rate_limit` is recorded there; when the ledger refuses it or cannot be
 * read, there is no check (the start goes on).
 */
import type { BudgetLedger } from '../budget/types.ts'
import { matchEndpoint } from '@touchline/upstream-contract/query'
import type { UpstreamClient } from './client.ts'
import { UpstreamError, UpstreamErrorCode } from './upstream-errors.ts'

/** The path the check asks for, under the base URL. */
export const PROBE_PATH = '/my/usage'
/** The bucket it is counted in. */
const PROBE_ENTITY = matchEndpoint(PROBE_PATH)?.endpoint.entity ?? 'Resource'

/**
 * Longest wait for the answer. An upstream that answers does within a second; one that does not (a
 * firewall dropping packets) would otherwise hold the start for the client's 10 s.
 */
export const PROBE_TIMEOUT_MS = 5000

export type ProbeResult =
  /** It answered as an upstream does (2xx, or 429: the token is good, the bucket empty). */
  | { outcome: 'answered', status: number }
  /** A setting is wrong: the start must stop, naming it. `message` quotes the upstream, never the token. */
  | { outcome: 'refused', variable: 'TOUCHLINE_UPSTREAM_TOKEN' | 'TOUCHLINE_UPSTREAM_URL', message: string }
  /** No usable answer (network failure, timeout, 5xx, an answer that is not the API's): an outage, maybe. */
  | { outcome: 'unreachable', host: string, code: string }
  /** Not asked: the ledger refused the call or cannot be read. */
  | { outcome: 'skipped', reason: string }

export interface ProbeOptions {
  upstream: UpstreamClient
  ledger: BudgetLedger
  /** TOUCHLINE_UPSTREAM_URL (or the embedded provider's): shown in messages without credentials. */
  baseUrl: string
  /** @default PROBE_TIMEOUT_MS */
  timeoutMs?: number
}

class NotReserved extends Error {}

/** Asks the upstream once; never throws. */
export async function probeUpstream (opts: ProbeOptions): Promise<ProbeResult> {
  const base = shownUrl(opts.baseUrl)
  try {
    const res = await opts.upstream.get(PROBE_PATH, {}, {
      retries: 0,
      timeoutMs: opts.timeoutMs ?? PROBE_TIMEOUT_MS,
      beforeAttempt: async () => { if (!await opts.ledger.reserve(PROBE_ENTITY)) throw new NotReserved('refused') }
    })
    return { outcome: 'answered', status: res.status }
  } catch (err) {
    if (err instanceof NotReserved) return { outcome: 'skipped', reason: `the budget ledger keeps the ${PROBE_ENTITY} bucket's last calls` }
    if (!(err instanceof UpstreamError)) return { outcome: 'skipped', reason: `the budget ledger cannot be read (${(err as Error).message})` }
    return verdict(err, base)
  }
}

/** What a failed check says about the settings. */
function verdict (err: UpstreamError, base: URL): ProbeResult {
  const said = err.upstreamMessage === undefined ? `${err.status ?? ''}` : `${err.status ?? ''} "${err.upstreamMessage}"`
  switch (err.code) {
    case UpstreamErrorCode.RateLimited:
      return { outcome: 'answered', status: err.status ?? 429 }
    case UpstreamErrorCode.Unauthorized:
      return { outcome: 'refused', variable: 'TOUCHLINE_UPSTREAM_TOKEN', message: `the upstream at ${base.origin} refuses the token: ${said}` }
    case UpstreamErrorCode.Forbidden:
      return { outcome: 'refused', variable: 'TOUCHLINE_UPSTREAM_TOKEN', message: `the upstream at ${base.origin} does not let the token read ${PROBE_PATH}, which every account may: ${said}` }
    case UpstreamErrorCode.NotFound:
      return { outcome: 'refused', variable: 'TOUCHLINE_UPSTREAM_URL', message: `${base.href.replace(/\/+$/, '')} has no ${PROBE_PATH}: ${said}; is it the API's base URL, /v3 included (e.g. https://api.sportmonks.com/v3)?` }
    default: {
      // The socket's own code (ECONNREFUSED, ENOTFOUND...) when there is one, else the failure's.
      const cause = (err.cause as { code?: unknown } | undefined)?.code
      const code = err.status !== undefined ? `HTTP ${err.status}` : err.code !== UpstreamErrorCode.Timeout && typeof cause === 'string' ? cause : err.code
      return { outcome: 'unreachable', host: base.host, code }
    }
  }
}

/** The base URL without credentials, for messages. */
function shownUrl (text: string): URL {
  const u = new URL(text)
  u.username = ''
  u.password = ''
  u.search = ''
  u.hash = ''
  return u
}
