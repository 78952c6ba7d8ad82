/** The budget's limit and where it comes from, as `/v1/status` and the `/metrics` gauges show them. */
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryLedger, type BudgetLedger } from '../../../src/budget/index.ts'
import { statusRoutes, type StatusBody } from '../../../src/http/status.ts'
import { createMetrics } from '../../../src/metrics.ts'
import { createStore } from '../../../src/store/index.ts'

const apps: FastifyInstance[] = []
afterEach(async () => { for (const app of apps.splice(0)) await app.close() })

async function serve (ledger: BudgetLedger): Promise<FastifyInstance> {
  const metrics = createMetrics({ defaults: false, budget: async () => await ledger.all() })
  const app = Fastify()
  await app.register(statusRoutes({ ledger, metrics, poller: () => undefined, store: createStore({ kind: 'memory' }) }))
  app.get('/metrics', async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()))
  apps.push(app)
  return app
}

describe('budget limit in /v1/status and /metrics', () => {
  it('shows a learned limit when the upstream gives no total', async () => {
    const ledger = createMemoryLedger()
    await ledger.record('Fixture', { remaining: 119, resetsInSeconds: 3599 })
    await ledger.record('Team', { remaining: 0, resetsInSeconds: 60, calls: 0 })
    const app = await serve(ledger)
    const body = (await app.inject('/v1/status')).json<StatusBody>()
    expect(body.budget).toEqual([
      expect.objectContaining({ entity: 'Fixture', remaining: 119, limit: 120, limit_source: 'learned' }),
      expect.objectContaining({ entity: 'Team', limit: null, limit_source: null })
    ])
    const text = (await app.inject('/metrics')).body
    expect(text).toContain('touchline_budget_limit{entity="Fixture",source="learned"} 120')
    expect(text).not.toMatch(/touchline_budget_limit\{entity="Team"/)
  })

  it('shows the configured limit (TOUCHLINE_UPSTREAM_HOURLY_LIMIT) over a reported one', async () => {
    const ledger = createMemoryLedger({ limit: 150 })
    await ledger.record('Fixture', { remaining: 119, resetsInSeconds: 3599, limit: 3000 })
    const app = await serve(ledger)
    const body = (await app.inject('/v1/status')).json<StatusBody>()
    expect(body.budget).toEqual([expect.objectContaining({ entity: 'Fixture', limit: 150, limit_source: 'configured' })])
    const text = (await app.inject('/metrics')).body
    expect(text).toContain('touchline_budget_limit{entity="Fixture",source="configured"} 150')
    expect(text).not.toContain('source="reported"')
  })

  it('shows each bucket\'s split: what the pollers\' claims keep until the reset, and what each side spent', async () => {
    const clock = { now: Date.parse('2026-12-01T20:00:00Z') }
    const ledger = createMemoryLedger({ now: () => clock.now })
    await ledger.record('Fixture', { remaining: 3000, resetsInSeconds: 3600, limit: 3000 })
    await ledger.claim('Fixture', 'livescores', { perHour: 3600, reserve: 0.2, lumps: 3, ttlMs: 60_000 })
    for (let i = 0; i < 5; i++) await ledger.reserve('Fixture', 1, { by: 'pollers' })
    for (let i = 0; i < 2; i++) await ledger.reserve('Fixture', 1, { by: 'passthrough' })
    clock.now += 30 * 60_000
    await ledger.claim('Fixture', 'livescores', { perHour: 3600, reserve: 0.2, lumps: 3, ttlMs: 60_000 })
    const app = await serve(ledger)
    const [row] = (await app.inject('/v1/status')).json<StatusBody>().budget
    // Half the hour left: half the pace capped at the limit less the reserve (2,400), plus the lumps.
    expect(row).toMatchObject({ entity: 'Fixture', remaining: 2993, pollers_need: 1203, spent: { pollers: 5, passthrough: 2 } })
  })
})
