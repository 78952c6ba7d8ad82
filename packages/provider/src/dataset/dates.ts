/** Date helpers: every timestamp of the dataset is unix seconds, every date string UTC. */

export const DAY = 86_400

/** Unix seconds of today's 00:00 UTC. */
export function startOfTodayUtc (nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000 / DAY) * DAY
}

/** `YYYY-MM-DD`. */
export function ymd (ts: number): string {
  return new Date(ts * 1000).toISOString().slice(0, 10)
}

/** `YYYY-MM-DD HH:MM:SS`, the API's timestamp format (no offset suffix). */
export function ymdhms (ts: number): string {
  const iso = new Date(ts * 1000).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
}

export function yearOf (ts: number): number {
  return new Date(ts * 1000).getUTCFullYear()
}

/** Seconds after midnight of `HH:MM`. */
export function parseClock (hhmm: string): number {
  const [h = '0', m = '0'] = hhmm.split(':')
  return Number(h) * 3600 + Number(m) * 60
}
