/** TOUCHLINE_UPSTREAM_HOURLY_LIMIT through a running gateway: the ledger takes it, status and metrics say so. */
import { afterEach, describe, expect, it } from 'vitest'
import type { StatusBody } from '../../../src/http/status.ts'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'

let gw: Gateway | undefined
afterEach(async () => { await gw?.close(); gw = undefined })

describe('a gateway with TOUCHLINE_UPSTREAM_HOURLY_LIMIT', () => {
  it('reports the configured limit in /v1/status and /metrics once the poller has called the upstream', async () => {
    gw = await startTestGateway({ env: { TOUCHLINE_LOG_LEVEL: 'silent', TOUCHLINE_UPSTREAM_HOURLY_LIMIT: '150' } })
    let fixture: StatusBody['budget'][number] | undefined
    for (let i = 0; i < 50 && fixture === undefined; i++) {
      const body = await (await fetch(`${gw.url}/v1/status`)).json() as StatusBody
      fixture = body.budget.find((b) => b.entity === 'Fixture')
      if (fixture === undefined) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(fixture).toMatchObject({ limit: 150, limit_source: 'configured' })
    const metrics = await (await fetch(`${gw.url}/metrics`)).text()
    expect(metrics).toContain('touchline_budget_limit{entity="Fixture",source="configured"} 150')
  }, 30_000)
})
