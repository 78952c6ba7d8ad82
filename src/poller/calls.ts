/**
 * The poller's upstream calls: each one reserved in the budget ledger first (no call goes out
 * unreserved), given a deadline that follows the upstream's own pace (deadline.ts) and hedged over it
 * (hedge.ts).
 */
import { AppError, ErrorCodes } from '../errors.ts'
import { UpstreamError, UpstreamTimeoutError } from '../upstream/index.ts'
import { parseFixtures, type UpstreamFixture } from '../upstream/schemas.ts'
import { pollerFloor } from '../budget/share.ts'
import type { PollerContext } from './context.ts'
import { hedgePlan } from './deadline.ts'
import { hedged } from './hedge.ts'
import { LIVESCORES_ENTITY } from './types.ts'

/** `fixtures/multi` takes at most 50 ids. */
export const MULTI_MAX = 50
/**
 * A `latest` poll retries an error answer once at once (one in three answers is an error on a bad night,
 * and each failed poll is a second of silence), but not a hung attempt: a hedge already went out beside it,
 * and the next poll is its retry.
 */
const LATEST_RETRIES = { retries: 1, retryTimeouts: false }
/**
 * Hedges a call may send beside it (deadline.ts hedgePlan): with four, a poll is lost to hung calls only
 * when five requests in a row hang. Of them, up to FAILURE_HEDGES go out at once on an error answer: with two,
 * a poll is lost to errors only when three requests in a row fail, each retried once, and an upstream that
 * answers only errors gets three requests a poll, not five.
 */
const MAX_HEDGES = 4
const FAILURE_HEDGES = 2
/** Hedges once FAILURES_AT_FLOOR polls in a row have failed: the upstream looks down, not unlucky. */
const HEDGES_WHEN_DOWN = 1
/** Which failures send the next hedge at once: error answers, hangs and network errors, not refusals (429, 4xx). */
const worthHedging = (err: unknown): boolean => err instanceof UpstreamError && err.retryable
/**
 * Failures in a row retried at the floor before the backoff grows: on a bad night one poll in thirty or so
 * fails even with its hedges, and waiting longer after it only lengthens the silence; an outage still
 * backs off within a few polls.
 */
export const FAILURES_AT_FLOOR = 2

/** Why a step made no (further) upstream call: the budget refused, or the ledger could not be read. */
export class PollSkipped extends AppError {
  override name = 'PollSkipped'
  constructor (readonly reason: 'budget_refused' | 'budget_ledger_unavailable', options?: { cause?: unknown }) {
    super(
      reason === 'budget_refused' ? ErrorCodes.BUDGET_REFUSED : ErrorCodes.BUDGET_LEDGER_UNAVAILABLE,
      reason === 'budget_refused' ? 'the Fixture budget refused the call' : 'the budget ledger cannot be read', options)
  }
}

/** Reserves one Fixture call in the ledger, or throws PollSkipped: no call goes out unreserved. */
export async function reserveCall (p: PollerContext): Promise<void> {
  let allowed: boolean
  try {
    const bucket = await p.deps.ledger.get(LIVESCORES_ENTITY)
    allowed = await p.deps.ledger.reserve(LIVESCORES_ENTITY, 1, { by: 'pollers', floor: pollerFloor(bucket, p.pacing.reserve) })
  } catch (err) {
    throw new PollSkipped('budget_ledger_unavailable', { cause: err })
  }
  if (!allowed) throw new PollSkipped('budget_refused')
}

/**
 * One poll call, hedged over one deadline (deadline.ts hedgePlan): each request is given what is left of
 * the call's deadline, so a call whose every request hangs ends at that deadline, all of them with it.
 * `latest` is never retried: the next poll, moments later, is its retry.
 */
export async function pollCall (p: PollerContext, path: string, latest = false): Promise<UpstreamFixture[]> {
  const deadline = latest ? p.deadlines.latest : p.deadlines.reconcile
  // After FAILURES_AT_FLOOR failed polls in a row the upstream is likely down: a failure then ends the
  // call when no request can still answer, without sending the next hedge at once, and one hedge at most
  // goes out beside a hung request.
  const down = p.failures >= FAILURES_AT_FLOOR
  const plan = hedgePlan(deadline.current(), deadline.hedgeAfter(), down ? HEDGES_WHEN_DOWN : MAX_HEDGES)
  const onFailure = down ? undefined : worthHedging
  const beforeAttempt = async (): Promise<void> => { await reserveCall(p) }
  const endsAt = performance.now() + plan.callMs
  // A hedge sent at once on an error answer late in the call still gets one interval.
  const timeoutMs = (): number => Math.max(plan.afterMs, Math.round(endsAt - performance.now()))
  const res = await hedged(async (signal) => await p.deps.upstream.get(path, p.query, { signal, beforeAttempt, timeoutMs: timeoutMs(), ...(latest ? LATEST_RETRIES : {}) }), plan.afterMs, p.abort.signal, plan.hedges, onFailure, FAILURE_HEDGES)
    .catch((err: unknown) => {
      // The last request's own timeout is what is left of the call's: name the call's deadline.
      if (!(err instanceof UpstreamTimeoutError)) throw err
      throw new UpstreamTimeoutError(`upstream did not answer GET ${err.path ?? path} within ${plan.callMs} ms (the request and its hedges)`, { path: err.path ?? path, entity: err.entity, cause: err })
    })
  // The answering attempt's own time: retries and their pauses say nothing of how fast the upstream is.
  deadline.succeeded(res.durationMs)
  return parseFixtures(res.envelope, { anomalies: p.anomalies, source: path })
}

/** Fixtures by id; an id the upstream does not know gives a 404 on the real API (nothing found, not an error). */
export async function fixturesByIds (p: PollerContext, ids: readonly number[]): Promise<UpstreamFixture[]> {
  try {
    return await pollCall(p, `/football/fixtures/multi/${ids.join(',')}`)
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) return []
    throw err
  }
}
