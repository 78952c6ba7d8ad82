/**
 * What a failed push request tells the operator (docs/push.md, "Operations"): every failure is counted by
 * its cause (`touchline_push_failures_total`: the HTTP status, or why there was none), a request sent again
 * later is logged with its status, and an alert given up for a device says why: its attempts ran out
 * (`exhausted`), or its TTL would pass before the next attempt (`expired`).
 *
 * Not a line per device: a push service that fails every request of a goal to thousands of devices would
 * write thousands. So each kind of line has a budget for the whole instance: the first few a minute go out at
 * info (a retry) or warn (a give-up), each saying how many were left out before it; the rest go at debug.
 */
import type { Logger } from 'pino'
import type { Metrics } from '../metrics.ts'
import { logBudget, type LogBudget } from '../util/log-budget.ts'
import type { Alert } from './alerts.ts'
import type { RetryEntry } from './ledger.ts'
import type { SendResult } from './send.ts'

/** Attempts at one alert for one device at most (it is also given up when its TTL would pass before the next). */
export const MAX_ATTEMPTS = 8

/** Lines of each kind let through a minute above debug, for the whole instance. */
const LINES_PER_MINUTE = 5

/** Why an alert is given up for a device: its attempts ran out, or its TTL would pass before the next one. */
export type GiveUpReason = 'attempts' | 'ttl'

/**
 * After `entry.attempt` failed attempts, the next one due at `dueAt` (ms): the reason to give the alert up,
 * or undefined to send it again. The attempt cap first: when both hold, that is the one reached.
 */
export function giveUpReason (entry: Pick<RetryEntry, 'attempt' | 'firstAt'>, dueAt: number, ttlS: number): GiveUpReason | undefined {
  if (entry.attempt >= MAX_ATTEMPTS) return 'attempts'
  if (dueAt > entry.firstAt + ttlS * 1000) return 'ttl'
  return undefined
}

/** The `cause` label of a failed request: its HTTP status, else why there was no answer. */
export function failureCause (result: SendResult): string {
  return result.status !== null ? String(result.status) : result.failure ?? 'network'
}

export interface FailureReport {
  /** A request that failed for good (a 4xx, a redirect, an address push may not use, unusable keys): counted. */
  refused: (result: SendResult) => void
  /** A request that failed and is queued to be sent again after `retryInMs`. */
  retried: (shard: number, entry: RetryEntry, result: SendResult, retryInMs: number) => void
  /** An alert given up for one device, and why. */
  givenUp: (shard: number, entry: RetryEntry, result: SendResult, reason: GiveUpReason) => void
}

export interface FailureReportDeps {
  metrics: Metrics
  log: Logger
  /** @default Date.now */
  now?: () => number
}

/** One per instance: its budgets hold for every shard's sender. */
export function createFailureReport (deps: FailureReportDeps): FailureReport {
  const { metrics, log } = deps
  const retryLines = logBudget(LINES_PER_MINUTE, 60_000, deps.now)
  const giveUpLines = logBudget(LINES_PER_MINUTE, 60_000, deps.now)
  const count = (result: SendResult): void => { metrics.pushFailures.inc({ cause: failureCause(result) }) }
  return {
    refused: count,
    retried (shard, entry, result, retryInMs) {
      count(result)
      metrics.pushSent.inc({ outcome: 'retry' })
      const fields = { ...facts(shard, entry, result), retryInMs }
      budgeted(retryLines, (suppressed) => log.info({ ...fields, ...suppressed }, 'push: request failed; sent again later'), () => log.debug(fields, 'push: request failed; sent again later'))
    },
    givenUp (shard, entry, result, reason) {
      count(result)
      metrics.pushSent.inc({ outcome: reason === 'ttl' ? 'expired' : 'exhausted' })
      const fields = { ...facts(shard, entry, result), reason, maxAttempts: MAX_ATTEMPTS, ttlS: entry.alert.ttl }
      const message = reason === 'ttl' ? 'push: alert given up (its TTL would pass before the next attempt)' : 'push: alert given up (its attempts ran out)'
      budgeted(giveUpLines, (suppressed) => log.warn({ ...fields, ...suppressed }, message), () => log.debug(fields, message))
    }
  }
}

/** What a line says of a failed request: never the endpoint (a device's address), keys or payload. */
function facts (shard: number, entry: RetryEntry, result: SendResult): Record<string, unknown> {
  const alert: Alert = entry.alert
  return { shard, alert: alert.id, kind: alert.kind, attempts: entry.attempt, status: result.status, cause: failureCause(result), error: result.error }
}

/** Logs through `loud` while the budget allows (with how many were left out before), else through `quiet`. */
function budgeted (budget: LogBudget, loud: (suppressed: { suppressed?: number }) => void, quiet: () => void): void {
  const left = budget()
  if (left === false) quiet()
  else loud(left > 0 ? { suppressed: left } : {})
}
