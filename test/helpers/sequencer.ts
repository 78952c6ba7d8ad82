/**
 * The order test files start in. Vitest starts the files that took longest in the last run first, but a
 * fresh clone (CI) has no last run, and then it goes by file size: a long file that is small, started last,
 * keeps the whole run waiting for it alone. So the files known to be long start first, within their project.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** Paths (under test/integration/) of the files that take longest, longest first. */
const LONG = [
  'failover/sentinel-failover', 'lb/rolling-restart', 'browser/livescore', 'browser/odds', 'browser/widgets', 'browser/push', 'pipeline/pipeline', 'pipeline/kickoff', 'pipeline/budget',
  'client/node-client', 'client/package', 'house/lint', 'webhooks/delivery', 'browser/connection', 'browser/client', 'record/round-trip',
  'pipeline/external-clock', 'odds/resume', 'odds/pipeline', 'odds/surfaces', 'odds/pacing', 'odds/poller-loop', 'webpush/match-day', 'webpush/kill', 'webpush/alerts',
  'resilience/log-loss', 'cli/cli', 'push/delta.test', 'ops/shutdown-outage', 'ops/signals',
  'ops/workers', 'resilience/leader-kill', 'resilience/frozen-link', 'resilience/lease-loss', 'ops/upstream-pools', 'ops/shutdown-inflight'
]

const rank = (spec: TestSpecification): number => {
  const i = LONG.findIndex((path) => spec.moduleId.includes(`/test/integration/${path}`))
  return i < 0 ? LONG.length : i
}

export default class LongFirst extends BaseSequencer {
  override async sort (files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const at = new Map(sorted.map((spec, i) => [spec, i]))
    // The projects' group order first (unit, integration, deadlines), then the long files, then as vitest had it.
    return [...sorted].sort((a, b) =>
      a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
      rank(a) - rank(b) ||
      (at.get(a) ?? 0) - (at.get(b) ?? 0))
  }
}
