/**
 * The days (docs/architecture.md, "The days"): every fixture of the days around today read into the store
 * beside the live ones, scheduled, finished or postponed alike, so `/v1/fixtures?date=` and a subscription
 * to a day hold all of them, not only those in play. One read, `fixtures/between/{from}/{to}` with the live
 * includes (50 a page), covers `daysBack` days before today (UTC) to `daysAhead` after it at the poller's
 * start; later ones, about once an hour (`listEvery`), yesterday to the last day ahead, which also picks up
 * a day that came into the window. Between reads, what changes before kick-off or after the end (a kick-off
 * moved, a postponement, a corrected result) comes from `fixtures/latest` in the polls (poller.ts).
 *
 * The same rows give the upcoming kick-offs (kickoffs.ts): `latest` does not list a fixture that enters the
 * feed unchanged, so the poller reconciles at the first poll after one is due to enter it.
 *
 * A read never moves a fixture in or out of the live set (ingest `live: 'outside'`), and leaves those in it to
 * the live polls. It starts after a `latest` poll while polls overlap and runs beside them, so a slow or hung
 * read never holds one up; with a bucket too small for that, the days are not read (every poll is a
 * reconcile then, and the budget has nothing to spare for them).
 */
import { LATEST_WINDOW_MS } from '@touchline/upstream-contract/livescores'
import { parseFixtures } from '../upstream/schemas.ts'
import { fixturesByIds, MULTI_MAX, PollSkipped, reserveCall } from './calls.ts'
import type { DaysProgress, DayWindow, PollerContext } from './context.ts'
import { KICKOFF_LIST_RETRY_MS, KICKOFF_LIST_TIMEOUT_MS, upcomingKickoffs } from './kickoffs.ts'
import { ingest } from './tracking.ts'

const DAY_MS = 86_400_000
/**
 * Line-ups are published about an hour before kick-off, and neither `latest` lists a fixture for them: every
 * LINEUPS_EVERY_MS the fixtures kicking off in the next LINEUPS_AHEAD_MS that have none yet are read by id
 * (`fixtures/multi`, 50 a call), so they come within minutes of their publication, not with the next read
 * of the days or the fixture's entry into the feed.
 */
export const LINEUPS_EVERY_MS = 5 * 60_000
const LINEUPS_AHEAD_MS = 75 * 60_000
/** Rows per page of a read with includes: the most the upstream gives (docs/upstream.md, "Pagination"). */
const DAY_PAGE = '50'

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/**
 * The read of the days from `back` days before today (UTC) to `ahead` days after it, with the live includes
 * and the leagues filter of every poll.
 */
export function daysRequest (now: number, window: DayWindow, query: Readonly<Record<string, string>>): { path: string, query: Record<string, string> } {
  return {
    path: `/football/fixtures/between/${dayOf(now - window.back * DAY_MS)}/${dayOf(now + window.ahead * DAY_MS)}`,
    query: { ...query, per_page: DAY_PAGE }
  }
}

/**
 * Reads the days, page by page, each page reserved like every call and stored as it comes. Best effort: a
 * page that fails (unretried: a hung one must not hold the next read) or is refused ends the attempt, and the
 * read goes on from that page KICKOFF_LIST_RETRY_MS later (one older than an interval starts over); the
 * kick-offs are replaced once every page is read. The poll it follows still counts. Never throws.
 */
async function readDays (p: PollerContext): Promise<void> {
  const wanted = p.daysWanted
  const t = p.now()
  const stale = p.daysProgress !== undefined && t - p.daysProgress.startedAt > p.listEvery
  const progress = p.daysProgress !== undefined && !stale ? p.daysProgress : startDays(p, t)
  if (progress !== p.daysProgress) p.lastDaysReadTick = p.ticks()
  p.daysProgress = progress
  try {
    const beforeAttempt = async (): Promise<void> => { await reserveCall(p) }
    const query = progress.page > 1 ? { ...progress.query, page: String(progress.page) } : progress.query
    for await (const page of p.deps.upstream.paginate(progress.path, query, { signal: p.abort.signal, beforeAttempt, timeoutMs: KICKOFF_LIST_TIMEOUT_MS, retries: 0 })) {
      const fixtures = parseFixtures(page.envelope, { anomalies: p.anomalies, source: progress.path })
      progress.found.push(...upcomingKickoffs(fixtures, progress.startedAt, p.leagues))
      await ingest(p, fixtures, { live: 'outside' })
      progress.page++
    }
  } catch (err) {
    // Asked for anew meanwhile: the new read (from its first page) at the next chance, not after a pause.
    p.nextListAt = p.daysWanted !== wanted ? 0 : p.ticks() + Math.min(p.listEvery, KICKOFF_LIST_RETRY_MS)
    p.deps.metrics?.polls.inc({ kind: 'days', outcome: err instanceof PollSkipped ? 'skipped' : 'error' })
    if (!p.abort.signal.aborted) p.log.warn({ err, page: progress.page }, 'a page of the days could not be read; going on from it later')
    return
  }
  p.daysProgress = undefined
  p.kickoffs.replace(progress.found, p.lastFeed)
  p.listPages = Math.max(1, progress.page - 1)
  // Asked for anew while it ran: another read at the next chance.
  p.nextListAt = p.daysWanted !== wanted ? 0 : p.ticks() + p.listEvery
  p.daysRead = true
  p.deps.metrics?.polls.inc({ kind: 'days', outcome: 'ok' })
}

/**
 * Asks for a new read of the days at the next chance, from its first page: one under way goes on, and is
 * followed by the new one (the store may have lost what it wrote). `whole`: of the whole window.
 */
export function wantDays (p: PollerContext, opts: { whole?: boolean } = {}): void {
  p.daysWanted++
  if (opts.whole === true) p.daysWhole = true
  p.nextListAt = 0
  p.daysProgress = undefined
}

/**
 * A new read: the whole window at the poller's start and after the store lost its days; else yesterday to the
 * last day ahead.
 */
function startDays (p: PollerContext, t: number): DaysProgress {
  const window = p.daysRead && !p.daysWhole ? { back: Math.min(1, p.days.back), ahead: p.days.ahead } : p.days
  p.daysWhole = false
  return { ...daysRequest(t, window, p.query), page: 1, found: [], startedAt: t }
}

/**
 * A read of the days for a gap in `fixtures/latest` comes at most this often (an outage is one gap; a pace that
 * leaves gaps now and then must not re-read the week every minute: a read is 7 to 30 pages).
 */
export const GAP_READ_EVERY_MS = 10 * 60_000

/**
 * `fixtures/latest` lists what changed in the last 10 s: when two successful ones started further apart than
 * that (failures, an outage, a pace too slow for them), a change of a fixture outside the live set may have
 * been missed, and the days are read again at the next chance, at most every GAP_READ_EVERY_MS.
 */
export function afterScheduleLatest (p: PollerContext, previousTick: number | null, startedTick: number): void {
  const gap = previousTick !== null && startedTick - previousTick > LATEST_WINDOW_MS - 1000
  if (gap && p.daysProgress === undefined && p.ticks() - p.lastDaysReadTick >= GAP_READ_EVERY_MS) wantDays(p)
  readDaysIfDue(p)
}

/**
 * The fixtures about to kick off (the kick-offs read with the days) whose line-ups the store does not hold
 * yet, read by id. Best effort, as the read of the days; never throws.
 */
async function readLineups (p: PollerContext): Promise<void> {
  const t = p.now()
  p.nextLineupsAt = p.ticks() + LINEUPS_EVERY_MS
  p.lineupCalls = 0
  try {
    const soon = p.kickoffs.kickingOff(t, t + LINEUPS_AHEAD_MS)
    const held = new Map((await p.deps.store.getFixtures(soon)).map((f) => [f.id, f]))
    const ids = soon.filter((id) => (held.get(id)?.lineups ?? null) === null)
    for (let i = 0; i < ids.length; i += MULTI_MAX) {
      p.lineupCalls++
      await ingest(p, await fixturesByIds(p, ids.slice(i, i + MULTI_MAX)), { live: 'outside' })
    }
    p.deps.metrics?.polls.inc({ kind: 'lineups', outcome: 'ok' })
  } catch (err) {
    p.deps.metrics?.polls.inc({ kind: 'lineups', outcome: err instanceof PollSkipped ? 'skipped' : 'error' })
    if (!p.abort.signal.aborted) p.log.warn({ err }, 'the line-ups to come could not be read')
  }
}

/** After a `latest` poll: the fixtures it listed are in the feed, and a read of the days may be due. */
export function afterLatest (p: PollerContext, fixtureIds: readonly number[]): void {
  p.kickoffs.seen(fixtureIds)
  readDaysIfDue(p)
}

/**
 * Starts the read of the days when it is due, else the read of the line-ups to come, while polls overlap
 * (not awaited: it runs beside the polls, one at a time).
 */
export function readDaysIfDue (p: PollerContext): void {
  if (p.listEvery <= 0 || !p.overlapping || p.listing !== undefined) return
  const tick = p.ticks()
  const read = tick >= p.nextListAt ? readDays : p.daysRead && tick >= p.nextLineupsAt ? readLineups : undefined
  if (read !== undefined) p.listing = read(p).finally(() => { p.listing = undefined })
}

/**
 * Calls per ms besides the polls: the reads of the days, and the `fixtures/multi` batches of the reconciles
 * the kick-offs add in the next hour (each one takes the place of a `latest` poll, so its `livescores` call
 * costs nothing extra).
 */
export function otherCallsPerMs (p: PollerContext): number {
  if (p.listEvery <= 0) return 0
  const t = p.now()
  return p.listPages / p.listEvery + p.lineupCalls / LINEUPS_EVERY_MS + (p.reconcileCalls - 1) * p.kickoffs.entriesBetween(t, t + p.listEvery) / p.listEvery
}
