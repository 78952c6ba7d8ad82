/**
 * SIGTERM with a REST passthrough request in flight: the request is answered, with `Connection: close`, so
 * the keep-alive connection it leaves does not hold fastify's close open (app.ts); an upstream that never
 * answers is cut after a short drain (gateway.ts), so the client gets an answer and the process exits 0
 * inside its 10 s deadline.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { startProvider } from '../../../packages/provider/src/index.ts'
import { spawnGateway } from './gateway-process.ts'
import { startProxy } from '../../helpers/http-proxy.ts'

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => { for (const c of cleanup.splice(0).reverse()) await c().catch(() => {}) })

describe('SIGTERM with a passthrough request in flight', () => {
  it('answers the request (upstream takes 3 s), then exits 0 soon after, not killed at the 10 s deadline', async () => {
    const provider = await startProvider({ port: 0, simSpeed: 60, hourlyLimits: { Enterprise: 1_000_000 } })
    cleanup.push(async () => { await provider.close() })
    const proxy = await startProxy(provider.baseUrl, { delayMs: (url) => /\/football\/teams\//.test(url) ? 3000 : 0 })
    cleanup.push(proxy.close)
    const gw = await spawnGateway({ env: { TOUCHLINE_UPSTREAM_URL: proxy.baseUrl } })
    const started = Date.now()
    // An ordinary keep-alive client (Node's fetch), as every browser and HTTP library is.
    const answered = fetch(`${gw.url}/v3/football/teams/1?api_token=demo`).then(async (r) => { await r.arrayBuffer(); return { status: r.status, at: Date.now() - started } })
    await sleep(300)
    const signalled = Date.now()
    gw.child.kill('SIGTERM')
    const reply = await answered
    const code = await gw.exited
    const took = Date.now() - signalled
    expect(reply.status).toBe(200)
    const killed = gw.output().includes('killed by timeout')
    expect({ exit: code, killedByTimeout: killed, exitedWithin5s: took < 5000 }).toEqual({ exit: 0, killedByTimeout: false, exitedWithin5s: true })
  }, 60_000)

  it('a request to a hung upstream does not push the shutdown past its deadline (exit 0)', async () => {
    const provider = await startProvider({ port: 0, simSpeed: 60, hourlyLimits: { Enterprise: 1_000_000 } })
    cleanup.push(async () => { await provider.close() })
    const proxy = await startProxy(provider.baseUrl, { delayMs: (url) => /\/football\/teams\//.test(url) ? Infinity : 0 })
    cleanup.push(proxy.close)
    const gw = await spawnGateway({ env: { TOUCHLINE_UPSTREAM_URL: proxy.baseUrl } })
    const answered = fetch(`${gw.url}/v3/football/teams/1?api_token=demo`).then(async (r) => { await r.arrayBuffer(); return r.status }, () => -1)
    await sleep(300)
    gw.child.kill('SIGTERM')
    const code = await gw.exited
    const status = await answered
    // The client should get an answer (a 503/504 saying the gateway is going away), not a reset.
    expect({ exit: code, killedByTimeout: gw.output().includes('killed by timeout'), answered: status > 0 }).toEqual({ exit: 0, killedByTimeout: false, answered: true })
  }, 60_000)
})
