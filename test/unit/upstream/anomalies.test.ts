import { pino } from 'pino'
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createAnomalyReporter } from '../../../src/upstream/anomalies.ts'
import { createMetrics } from '../../../src/metrics.ts'
import { counterValue } from '../../helpers/pipeline.ts'

function setup (capacity?: number) {
  const lines: string[] = []
  const log = pino({ level: 'warn' }, new Writable({ write (chunk: Buffer, _e, done) { lines.push(chunk.toString()); done() } }))
  const metrics = createMetrics({ defaults: false })
  const report = createAnomalyReporter({ log, counter: metrics.upstreamAnomalies, ...(capacity !== undefined ? { capacity } : {}) })
  return { lines, metrics, report }
}

describe('anomaly reporter', () => {
  it('counts and logs a (fixture, field) once however often it is seen', async () => {
    const { lines, metrics, report } = setup()
    for (let poll = 0; poll < 50; poll++) {
      report({ path: 'periods.period_length', fixtureId: 1, issue: 'null', source: '/football/livescores' })
      report({ path: 'participants', fixtureId: 1, issue: 'missing' })
      report({ path: 'participants', fixtureId: 2, issue: 'missing' })
    }
    expect(await counterValue(metrics, 'touchline_upstream_anomalies_total', { path: 'participants' })).toBe(2)
    expect(await counterValue(metrics, 'touchline_upstream_anomalies_total', { path: 'periods.period_length' })).toBe(1)
    expect(lines).toHaveLength(3)
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40, anomaly: { path: 'periods.period_length', fixtureId: 1, source: '/football/livescores' } })
  })

  it('remembers a bounded number of pairs, forgetting the least recently seen first', async () => {
    const { metrics, report } = setup(2)
    const seen = (fixtureId: number): void => { report({ path: 'scores', fixtureId, issue: 'missing' }) }
    seen(1)
    seen(2)
    seen(1) // 1 is now the most recent
    seen(3) // evicts 2
    seen(1)
    expect(await counterValue(metrics, 'touchline_upstream_anomalies_total', { path: 'scores' })).toBe(3)
    seen(2)
    expect(await counterValue(metrics, 'touchline_upstream_anomalies_total', { path: 'scores' })).toBe(4)
  })
})
