/**
 * The embedded provider listens where the gateway does (TOUCHLINE_HOST), so the port compose publishes
 * reaches it from the host; on 127.0.0.1 it stays private.
 */
import { networkInterfaces } from 'node:os'
import { describe, expect, it } from 'vitest'
import { spawnGateway } from './gateway-process.ts'

/** An address of this machine other than loopback, to look at the listeners from "outside". */
const external = Object.values(networkInterfaces()).flat().find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address

const reachable = async (url: string): Promise<boolean> => await fetch(url).then((r) => r.ok, () => false)

describe.skipIf(external === undefined)('the embedded provider host', () => {
  it('follows TOUCHLINE_HOST: every interface with 0.0.0.0, loopback only with 127.0.0.1', async () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const gw = await spawnGateway({ env: { TOUCHLINE_HOST: host } })
      const [, port] = gw.output().match(/embedded provider\s+http:\/\/[^:]+:(\d+)\/v3/) ?? []
      expect(port).toBeDefined()
      expect(await reachable(`http://127.0.0.1:${port}/healthz`)).toBe(true)
      expect(await reachable(`http://${external}:${port}/healthz`)).toBe(host === '0.0.0.0')
      gw.child.kill('SIGTERM')
      expect(await gw.exited).toBe(0)
    }
  }, 60_000)
})
