/**
 * Fault injection for tests and demos (off by default): errors, latency, hung responses, forced 429 bursts
 * and outage windows. Settings can change while the provider runs (`set`), so a test can open an outage
 * in the middle of a match and close it again.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { internalError, tooManyRequests, type ErrorReply } from './error-replies.ts'

export interface FaultOptions {
  /** Share of requests answered 500 with an `error_id` (0..1). @default 0 */
  errorRate?: number
  /** Added latency per request in ms, fixed or a [min, max] range. @default 0 */
  latencyMs?: number | [number, number]
  /** Share of requests that never get an answer (0..1). @default 0 */
  hangRate?: number
  /** The next N requests are answered 429. */
  rateLimitBurst?: number
  /** `retry_after` of those forced 429s, seconds. @default 60 */
  retryAfterSeconds?: number
  /** Every request until this epoch-ms time gets 503. */
  outageUntil?: number
  /** Only requests whose path contains this text are affected. @default every request */
  pathContains?: string
}

export interface Faults {
  set: (opts: FaultOptions) => void
  get: () => Readonly<FaultOptions>
  /** Called before a request is served: undefined to serve it, `hang` to never answer, or the reply to send. */
  before: (url: string) => Promise<ErrorReply | 'hang' | undefined>
}

export function createFaults (initial: FaultOptions = {}, now: () => number = Date.now, random: () => number = Math.random): Faults {
  let opts: FaultOptions = { ...initial }
  return {
    set (next) { opts = { ...next } },
    get () { return opts },
    async before (url) {
      if (opts.pathContains !== undefined && !url.includes(opts.pathContains)) return undefined
      const latency = Array.isArray(opts.latencyMs) ? opts.latencyMs[0] + random() * (opts.latencyMs[1] - opts.latencyMs[0]) : (opts.latencyMs ?? 0)
      if (latency > 0) await sleep(latency)
      if (opts.outageUntil !== undefined && now() < opts.outageUntil) {
        return { status: 503, body: { error: 'Service Unavailable', message: 'The service is temporarily unavailable.', error_id: 'outage' } }
      }
      if ((opts.rateLimitBurst ?? 0) > 0) {
        opts.rateLimitBurst = (opts.rateLimitBurst ?? 1) - 1
        return tooManyRequests('Fixture', 0, opts.retryAfterSeconds ?? 60)
      }
      if ((opts.hangRate ?? 0) > 0 && random() < (opts.hangRate ?? 0)) return 'hang'
      if ((opts.errorRate ?? 0) > 0 && random() < (opts.errorRate ?? 0)) return internalError()
      return undefined
    }
  }
}
