/**
 * The match clock a client runs itself, and the rule that keeps clock ticks off the wire.
 *
 * Upstream reports the clock as a minute (and second) at poll time. The normalizer turns that into a
 * MatchClock anchored at the detection time: `period_started_at` is when the period's clock read
 * `counts_from`:00, so the clock computed at `at` shows the reported minute by construction. The differ
 * then sees a new anchor at every poll; `settleClock` keeps the stored anchor whenever it still shows the
 * reported minute, and `isPredictedTick` tells the caller that such a change carries nothing a client
 * running the clock does not already show. Those are not stored: the stored `minute` is the minute at the
 * fixture's last change, and clients tick from `clock`. Pure: the caller passes the time.
 */
import { runningMinute } from '@touchline/core'
import { sameValue } from '../util/same-value.ts'
import type { Change, LiveFixture, MatchClock } from '../wire-model/model.ts'

/**
 * The minute the clock shows at `atMs`: the running clock's, else the fixture's own `minute`. The client
 * library's own function, so the gateway leaves out exactly the ticks its clients show anyway.
 */
export const clockMinute = (f: Pick<LiveFixture, 'minute' | 'clock'>, atMs: number): number | null => runningMinute(f, atMs)

/**
 * A clock anchored at `atMs` so that it shows `minute` and `second` (unknown: the middle of the minute,
 * so the clock is at most half a minute early or late until the next correction).
 */
export function anchoredClock (at: { atMs: number, minute: number, second: number | null, rate: number }, period: Omit<MatchClock, 'period_started_at' | 'rate'>): MatchClock {
  const second = at.second === null ? 30 : Math.min(59, Math.max(0, at.second))
  const elapsedMs = ((at.minute - period.counts_from) * 60 + second) * 1000 / at.rate
  return { period_started_at: new Date(at.atMs - elapsedMs).toISOString(), ...period, rate: at.rate }
}

/** Same clock apart from where it is anchored. */
function sameRunning (a: MatchClock, b: MatchClock): boolean {
  return a.counts_from === b.counts_from && a.length === b.length && a.added === b.added && a.rate === b.rate && a.ticking && b.ticking
}

/**
 * How far the stored clock may be from upstream's before it is corrected, in match seconds. Upstream
 * floors its seconds and the anchor is taken when the response arrives, so a fresh anchor runs up to a
 * second or so late; without this slack every minute boundary a poll lands close to would cost a
 * correction.
 */
const CLOCK_SLACK_S = 2

/**
 * `next` with the stored fixture's clock kept when that clock, run to `atMs`, shows `next.minute` (within
 * CLOCK_SLACK_S either way) and nothing else about the clock changed; then `minute` is the minute that clock
 * shows, so the stored fixture and every client running the clock agree exactly. `next` as it is otherwise:
 * a correction.
 */
export function settleClock (prev: LiveFixture | undefined, next: LiveFixture, atMs: number): LiveFixture {
  const before = prev?.clock
  const after = next.clock
  if (prev === undefined || before === undefined || before === null || after === undefined || after === null) return next
  if (!sameRunning(before, after)) return next
  const slackMs = CLOCK_SLACK_S * 1000 / before.rate
  const shown = clockMinute(prev, atMs)
  if (next.minute !== shown && next.minute !== clockMinute(prev, atMs - slackMs) && next.minute !== clockMinute(prev, atMs + slackMs)) return next
  return { ...next, minute: shown, clock: before }
}

/**
 * Whether `changes` is only a clock tick that the stored clock already shows at `atMs`: a client running
 * the clock needs no frame for it, so it is not stored.
 */
export function isPredictedTick (prev: LiveFixture | undefined, next: LiveFixture, changes: readonly Change[], atMs: number): boolean {
  if (prev === undefined || changes.length !== 1) return false
  const [only] = changes
  if (only?.kind !== 'clock' || only.clock !== undefined) return false
  return sameValue(prev.clock, next.clock) && clockMinute(prev, atMs) === next.minute
}

/**
 * The fixtures as they read at `atMs`: each `minute` the one its running clock shows then, as a client
 * running the clock would show it (for snapshots read over HTTP, whose readers may not run the clock).
 * `until` is when the first of those minutes moves on; the list itself when no minute moved.
 */
export function minutesAt (fixtures: readonly LiveFixture[], atMs: number): { fixtures: readonly LiveFixture[], until: number } {
  let until = Infinity
  let out: LiveFixture[] | undefined
  fixtures.forEach((f, i) => {
    const minute = clockMinute(f, atMs)
    const c = f.clock
    if (c !== undefined && c !== null && c.ticking && minute !== null) {
      const started = Date.parse(c.period_started_at)
      if (Number.isFinite(started)) until = Math.min(until, started + (minute - c.counts_from + 1) * 60_000 / c.rate)
    }
    if (minute === f.minute) return
    out ??= fixtures.slice()
    out[i] = { ...f, minute }
  })
  return { fixtures: out ?? fixtures, until }
}
