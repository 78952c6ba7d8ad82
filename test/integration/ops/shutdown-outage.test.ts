/**
 * SIGTERM on a real `touchline serve` process on a bad night, Redis gone or its link hung, clients connected:
 * the shutdown still closes WebSockets with 1001 and a resume cursor, ends SSE streams, and exits 0 in time.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { openSse } from '../fanout/harness.ts'
import { spawnGateway, type GatewayProcess } from './gateway-process.ts'
import { freshPrefix } from '../../helpers/redis.ts'

let redis: PrivateRedis
beforeAll(async () => { redis = await startPrivateRedis() })
afterAll(async () => { await redis.close() })

async function gatewayOver (proxy: TcpProxy): Promise<GatewayProcess> {
  return await spawnGateway({ env: { TOUCHLINE_REDIS_URL: `redis://127.0.0.1:${proxy.port}`, TOUCHLINE_REDIS_PREFIX: freshPrefix() } })
}

async function subscribedWs (gw: GatewayProcess): Promise<WsTestClient> {
  const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=demo`)
  await ws.take('hello')
  ws.send({ op: 'subscribe', ref: 's', leagues: '*' })
  await ws.take('subscribed', 10_000)
  return ws
}

describe('SIGTERM while Redis misbehaves', () => {
  for (const fault of ['cut and refused', 'frozen'] as const) {
    it(`Redis link ${fault}: WebSocket closed 1001 with a cursor, SSE ended, exit 0 well within the 10 s grace`, async () => {
      const proxy = await startTcpProxy(redis.port)
      try {
        const gw = await gatewayOver(proxy)
        const ws = await subscribedWs(gw)
        const sse = await openSse(`${gw.url}/v1/sse?api_token=demo`)
        await sleep(1500)
        if (fault === 'frozen') proxy.freeze()
        else { proxy.pause(); proxy.cut() }
        await sleep(1000)
        const t = Date.now()
        gw.child.kill('SIGTERM')
        const closed = await ws.closed
        await sse.ended
        const code = await gw.exited
        const took = Date.now() - t
        console.info(`SIGTERM with the Redis link ${fault}: exit ${code} after ${took} ms`)
        expect({ code: closed.code, reasonIsCursor: /^[^:]+:\d+$/.test(closed.reason) }).toEqual({ code: 1001, reasonIsCursor: true })
        expect({ exit: code, withinGrace: took < 9000 }, gw.output().split('\n').filter((l) => l.includes('"level":50') || l.includes('killed')).join('\n')).toEqual({ exit: 0, withinGrace: true })
      } finally {
        proxy.thaw()
        await proxy.close()
      }
    }, 60_000)
  }
})
