/**
 * When upcoming fixtures enter the livescores feed, so that the poller reconciles at that moment rather
 * than at its next periodic reconcile. A fixture enters `livescores` 15 minutes before kick-off
 * (docs/upstream.md, "Livescores") without any tracked base field changing, so `latest` does not list it.
 *
 * The kick-off times come from the read of the days around today, about once an hour (days.ts), narrowed to
 * the configured leagues. Each fixture is then due twice:
 * when it enters the feed (kick-off minus the lead) and, if a reconcile at that moment did not find it in
 * the feed, at kick-off. A fixture any reconcile or `latest` poll has seen in the feed is done.
 *
 * Pure bookkeeping: the poller makes the calls, reserves them in the budget ledger, and reports what each
 * reconcile saw.
 */
import { FEED_LEAD_MS } from '@touchline/upstream-contract/livescores'

/** How often the poller reads the days, and the upcoming kick-offs with them. */
export const KICKOFF_LIST_EVERY_MS = 3_600_000
/**
 * After a read that stopped at a failed or refused page, the next attempt, which goes on from that page: the
 * pages read are not paid for again, so it need not wait long.
 */
export const KICKOFF_LIST_RETRY_MS = 30_000
/**
 * Deadline of one page of the days, unretried: a hung one must not hold the read (and the next one) for the
 * client's full timeout and retries.
 */
export const KICKOFF_LIST_TIMEOUT_MS = 5000

/** An upcoming fixture: its id and kick-off, epoch ms. */
export interface Kickoff {
  id: number
  at: number
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
  /** Fixtures still scheduled that kick off in [from, to). */
  kickingOff: (from: number, to: number) => number[]
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
    kickingOff (from, to) {
      return [...upcoming].filter(([, f]) => f.kickoff >= from && f.kickoff < to).map(([id]) => id)
    },
    size: () => upcoming.size
  }
}
