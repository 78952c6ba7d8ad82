/**
 * The anomaly reporter: where the upstream sent a value our schemas did not expect and the parser fell back
 * (a null minute, an unknown period type, a missing participant, a fixture without an id...). Each anomaly
 * is counted in `touchline_upstream_anomalies_total{path}` and logged at warn once per (fixture, field), not
 * once per poll: a live fixture is fetched every second or two, and the same odd field would otherwise
 * flood the log. The memory of what was seen is bounded (least recently seen forgotten first).
 */
import { LRUCache } from 'lru-cache'
import type { Logger } from 'pino'

export interface Anomaly {
  /** Field path inside a fixture, e.g. `periods.period_length`, `participants`, `id`. Bounded: a metric label. */
  path: string
  /** The fixture it was found in, or null when the fixture has no usable id. */
  fixtureId: number | null
  /** What was wrong, for the log line (a zod message, "missing"...). */
  issue: string
  /** The upstream request path it came from (without the token), for the log line. */
  source?: string
}

/** Receives anomalies; the parser calls it, the reporter below dedups, counts and logs. */
export type AnomalySink = (anomaly: Anomaly) => void

export interface AnomalyReporterOptions {
  log?: Logger
  /** The counter `touchline_upstream_anomalies_total`, labelled by `path`. */
  counter?: { inc: (labels: { path: string }) => void }
  /** How many (fixture, field) pairs are remembered. @default 4096 */
  capacity?: number
}

export function createAnomalyReporter (opts: AnomalyReporterOptions = {}): AnomalySink {
  const capacity = opts.capacity ?? 4096
  // Each sighting makes its key the freshest; past `capacity` the stalest is forgotten (and would be said again).
  const seen = new LRUCache<string, true>({ max: capacity })
  return (anomaly) => {
    const key = `${anomaly.fixtureId ?? '?'}|${anomaly.path}`
    if (seen.get(key) === true) return
    seen.set(key, true)
    opts.counter?.inc({ path: anomaly.path })
    opts.log?.warn({ anomaly }, 'upstream sent an unexpected value; using a fallback')
  }
}
