/**
 * When upcoming fixtures enter the livescores feed, so that the poller reconciles at that moment rather
 * than at its next periodic reconcile. A fixture enters `livescores` 15 minutes before kick-off
 * (docs/upstream.md, "Livescores") without any tracked base field changing, so `latest` does not list it.
 *
 * The kick-off times come from one cheap list call about once an hour: `fixtures/between` from today to
 * the day the next list is due (plus the lead), with `filters=populate` (no includes, 1,000 a page) and a
 * `select` of the league and kick-off, narrowed to the configured leagues. Each fixture is then due twice:
 * when it enters the feed (kick-off minus the lead) and, if a reconcile at that moment did not find it in
 * the feed, at kick-off. A fixture any reconcile or `latest` poll has seen in the feed is done.
 *
 * Pure bookkeeping: the poller makes the calls, reserves them in the budget ledger, and reports what each
 * reconcile saw.
 */
import { FEED_LEAD_MS } from '../contract/livescores.ts'
import type { Query } from '../upstream/index.ts'

/** How often the poller lists the upcoming kick-offs. */
export const KICKOFF_LIST_EVERY_MS = 3_600_000
/** After a failed or refused list call, the next attempt. */
export const KICKOFF_LIST_RETRY_MS = 5 * 60_000
/**
 * Deadline of one list page, unretried: the list holds up the next `latest` poll, and a hung one must not
 * silence changes for the client's full timeout and retries (a gap past the window means a reconcile next).
 */
export const KICKOFF_LIST_TIMEOUT_MS = 5000
/** Rows per page of a `filters=populate` list: the most the upstream gives (docs/upstream.md, "Pagination"). */
const POPULATE_PAGE = '1000'

/** An upcoming fixture: its id and kick-off, epoch ms. */
export interface Kickoff {
  id: number
  at: number
}

export interface KickoffListOptions {
  /** Only these leagues (`fixtureLeagues` filter); all when unset or empty. */
  leagues?: readonly number[]
  /** How long the list must last: until the next one, plus the lead. */
  spanMs: number
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** The list request: every fixture kicking off from today (UTC) to the day `spanMs` from now. */
export function kickoffListRequest (now: number, opts: KickoffListOptions): { path: string, query: Query } {
  const leagues = opts.leagues ?? []
  const filters = leagues.length > 0 ? `populate;fixtureLeagues:${leagues.join(',')}` : 'populate'
  return {
    path: `/football/fixtures/between/${day(now)}/${day(now + opts.spanMs)}`,
    query: { filters, select: 'league_id,starting_at_timestamp', per_page: POPULATE_PAGE }
  }
}

/**
 * The fixtures of a list page still to kick off after `now`, in the configured leagues (checked here too:
 * a filter the upstream ignored must not schedule reconciles for other leagues). Rows without an id or a
 * kick-off are skipped.
 */
export function upcomingKickoffs (rows: readonly unknown[], now: number, leagues: readonly number[] = []): Kickoff[] {
  const wanted = new Set(leagues)
  const out: Kickoff[] = []
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue
    const { id, starting_at_timestamp: kickoff, league_id: league } = row as Record<string, unknown>
    if (typeof id !== 'number' || typeof kickoff !== 'number') continue
    if (wanted.size > 0 && (typeof league !== 'number' || !wanted.has(league))) continue
    if (kickoff * 1000 > now) out.push({ id, at: kickoff * 1000 })
  }
  return out
}

export interface KickoffSchedule {
  /** Replaces the schedule with a new list; fixtures already in the feed are left out. */
  replace: (kickoffs: readonly Kickoff[], inFeed: ReadonlySet<number>) => void
  /** Whether a fixture is due (its moment has come and no reconcile since has looked for it). */
  due: (now: number) => boolean
  /**
   * After a reconcile that started at `at` and found `inFeed`: fixtures in the feed are done; those it was
   * due for and did not find are due again at kick-off, or given up once that has passed too (the periodic
   * reconcile still finds them).
   */
  reconciled: (at: number, inFeed: ReadonlySet<number>) => void
  /** Fixtures a `latest` poll listed: in the feed, so done. */
  seen: (ids: Iterable<number>) => void
  /** Distinct moments in [from, to) at which fixtures enter the feed: the reconciles the schedule will add. */
  entriesBetween: (from: number, to: number) => number
  /** Fixtures still scheduled. */
  size: () => number
}

export function createKickoffSchedule (leadMs: number = FEED_LEAD_MS): KickoffSchedule {
  /** Per fixture: its kick-off, and the next moment a reconcile should look for it. */
  let upcoming = new Map<number, { kickoff: number, next: number }>()
  return {
    replace (kickoffs, inFeed) {
      upcoming = new Map(kickoffs.filter((k) => !inFeed.has(k.id)).map((k) => [k.id, { kickoff: k.at, next: k.at - leadMs }]))
    },
    due (now) {
      for (const f of upcoming.values()) if (f.next <= now) return true
      return false
    },
    reconciled (at, inFeed) {
      for (const [id, f] of upcoming) {
        if (inFeed.has(id)) upcoming.delete(id)
        else if (f.next <= at) {
          if (at < f.kickoff) f.next = f.kickoff
          else upcoming.delete(id)
        }
      }
    },
    seen (ids) {
      for (const id of ids) upcoming.delete(id)
    },
    entriesBetween (from, to) {
      const moments = new Set<number>()
      for (const f of upcoming.values()) if (f.next >= from && f.next < to) moments.add(f.next)
      return moments.size
    },
    size: () => upcoming.size
  }
}
