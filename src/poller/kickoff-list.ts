/**
 * The upcoming kick-offs, listed about once an hour beside the polls (kickoffs.ts has the schedule and the
 * list request): `latest` does not list a fixture that enters the feed unchanged, so the poller reconciles
 * at the first poll after a fixture is due to enter it. The list starts after a `latest` poll while polls
 * overlap and runs beside them, so a slow or hung list never holds one up; with a bucket too small for
 * that every poll is a reconcile anyway.
 */
import { PollSkipped, reserveCall } from './calls.ts'
import type { PollerContext } from './context.ts'
import { KICKOFF_LIST_EVERY_MS, KICKOFF_LIST_RETRY_MS, KICKOFF_LIST_TIMEOUT_MS, kickoffListRequest, upcomingKickoffs, type Kickoff } from './kickoffs.ts'

/**
 * Lists the upcoming kick-offs, page by page, each page reserved like every call. Best effort: a failed
 * or refused list keeps the schedule it had and is tried again later; the poll it follows still counts.
 * Never throws. It runs beside the polls: a fixture a `latest` poll lists meanwhile may be scheduled
 * again, which costs at most one reconcile that finds it in the feed.
 */
async function listKickoffs (p: PollerContext): Promise<void> {
  const t = p.now()
  const leagues = p.leagues
  const request = kickoffListRequest(t, { ...(leagues !== undefined ? { leagues } : {}), spanMs: p.listEvery + p.feedLeadMs })
  const found: Kickoff[] = []
  let pages = 0
  try {
    const beforeAttempt = async (): Promise<void> => { await reserveCall(p) }
    for await (const page of p.deps.upstream.paginate(request.path, request.query, { signal: p.abort.signal, beforeAttempt, timeoutMs: KICKOFF_LIST_TIMEOUT_MS, retries: 0 })) {
      pages++
      found.push(...upcomingKickoffs(page.data, t, leagues))
    }
  } catch (err) {
    p.nextListAt = p.ticks() + Math.min(p.listEvery, KICKOFF_LIST_RETRY_MS)
    p.deps.metrics?.polls.inc({ kind: 'kickoffs', outcome: err instanceof PollSkipped ? 'skipped' : 'error' })
    if (!p.abort.signal.aborted) p.log.warn({ err }, 'upcoming kick-offs could not be listed; reconciling on the interval only')
    return
  }
  p.kickoffs.replace(found, p.lastFeed)
  p.listPages = Math.max(1, pages)
  p.nextListAt = p.ticks() + p.listEvery
  p.deps.metrics?.polls.inc({ kind: 'kickoffs', outcome: 'ok' })
}

/** After a `latest` poll: the fixtures it listed are in the feed, and the kick-off list may be due (not awaited). */
export function afterLatest (p: PollerContext, fixtureIds: readonly number[]): void {
  p.kickoffs.seen(fixtureIds)
  if (p.listEvery > 0 && p.overlapping && p.listing === undefined && p.ticks() >= p.nextListAt) {
    p.listing = listKickoffs(p).finally(() => { p.listing = undefined })
  }
}

/**
 * Calls per ms besides the polls: the kick-off list, and the `fixtures/multi` batches of the reconciles
 * the schedule adds in the next hour (each one takes the place of a `latest` poll, so its `livescores`
 * call costs nothing extra).
 */
export function otherCallsPerMs (p: PollerContext): number {
  if (p.listEvery <= 0) return 0
  const t = p.now()
  return p.listPages / p.listEvery + (p.reconcileCalls - 1) * p.kickoffs.entriesBetween(t, t + KICKOFF_LIST_EVERY_MS) / KICKOFF_LIST_EVERY_MS
}
