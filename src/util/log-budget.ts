/**
 * A fixed-window budget of log lines, for lines that a client or a remote service can cause at any rate (a
 * client's protocol violations, a push service failing every request of a goal to thousands of devices):
 * at most `burst` lines per `windowMs` get through, and the next one that does says how many were left out.
 */

/**
 * Returns false when the line must be left out (or logged at a lower level), otherwise how many lines were
 * left out since the last one let through.
 */
export type LogBudget = () => number | false

/** A budget of `burst` lines per `windowMs`. */
export function logBudget (burst: number, windowMs: number, now: () => number = Date.now): LogBudget {
  let windowStart = -Infinity
  let used = 0
  let dropped = 0
  return () => {
    const t = now()
    if (t - windowStart >= windowMs) {
      windowStart = t
      used = 0
    }
    if (used >= burst) {
      dropped++
      return false
    }
    used++
    const report = dropped
    dropped = 0
    return report
  }
}
