/**
 * TOUCHLINE_TRUST_PROXY (docs/settings.md): the per-IP connection limit counts the socket's address, whatever
 * `X-Forwarded-For` a client sends, unless the operator says a proxy in front sets it; then it counts the
 * client address the proxy reports. Built with the real app (buildApp) and hub on a free port, with a
 * per-IP burst of 2 and no refill during the test.
 */
import { pino } from 'pino'
import { describe, expect, it, onTestFinished } from 'vitest'
import { buildApp } from '../../../src/app.ts'
import { createMemoryLedger } from '../../../src/budget/index.ts'
import { createHub } from '../../../src/fanout/hub.ts'
import { createKeyRing } from '../../../src/client-keys.ts'
import { createMetrics } from '../../../src/metrics.ts'
import { createStore } from '../../../src/store/index.ts'
import { createUpstreamClient } from '../../../src/upstream/index.ts'
import { clientKey, openSse } from '../fanout/harness.ts'

async function startApp (trustProxy?: boolean | number | string[]): Promise<string> {
  const log = pino({ level: 'silent' })
  const store = createStore({ kind: 'memory' })
  const metrics = createMetrics({ defaults: false })
  const ledger = createMemoryLedger()
  const hub = createHub({ store, metrics, log, limits: { connectionBurstPerIp: 2, connectionsPerSecondPerIp: 0.001 } })
  await hub.start()
  // Never called here: the routes under test read the store and the hub only.
  const upstream = createUpstreamClient({ baseUrl: 'http://127.0.0.1:9/v3', token: 'unused', logger: log })
  const app = await buildApp({
    log, store, ledger, upstream, metrics, hub, keys: createKeyRing([clientKey('all')]), ...(trustProxy !== undefined ? { trustProxy } : {})
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  onTestFinished(async () => { await app.close(); await hub.close() })
  const address = app.server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

/** Opens SSE streams one after the other, each claiming to come from `forwardedFor`; their statuses. */
async function connect (base: string, forwardedFor: readonly string[]): Promise<number[]> {
  const statuses: number[] = []
  for (const ip of forwardedFor) {
    const stream = await openSse(`${base}/v1/sse?api_token=all-key`, { 'x-forwarded-for': ip })
    statuses.push(stream.status)
    stream.close()
  }
  return statuses
}

describe('per-IP limits and X-Forwarded-For', () => {
  it('ignores a spoofed X-Forwarded-For when no proxy is trusted', async () => {
    const base = await startApp()
    expect(await connect(base, ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']),
      'four "different" clients on one socket address share one bucket of 2').toEqual([200, 200, 429, 429])
  })

  it('counts the forwarded client address when the proxy is trusted', async () => {
    const base = await startApp(['127.0.0.1'])
    expect(await connect(base, ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.1', '203.0.113.1']),
      'one bucket per client behind the proxy').toEqual([200, 200, 200, 200, 429])
  })

  it('takes a hop count as trusting that many proxies', async () => {
    const base = await startApp(1)
    expect(await connect(base, ['203.0.113.5', '203.0.113.6', '203.0.113.7'])).toEqual([200, 200, 200])
  })

  it('does not trust a proxy other than the ones listed', async () => {
    const base = await startApp(['10.0.0.1'])
    expect(await connect(base, ['203.0.113.1', '203.0.113.2', '203.0.113.3'])).toEqual([200, 200, 429])
  })
})
