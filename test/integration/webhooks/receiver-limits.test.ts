/**
 * What a receiver cannot make the gateway do: follow a redirect, or buffer a large body; and endpoints of one
 * host that never answer leave another endpoint of that host delivered at once.
 */
import { createServer, type Server } from 'node:http'
import { expect, it, onTestFinished } from 'vitest'
import { applier } from '../fanout/harness.ts'
import { hookKey, SECRET, startHookGateway, startReceiver, writeKeys } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

async function listen (server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { server.closeAllConnections(); await new Promise<void>((resolve) => server.close(() => resolve())) })
  const a = server.address()
  return `http://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`
}

it('a 302 to another receiver is not followed; a huge (50 MB) 2xx body is acked after 4 KiB', async () => {
  const target = await startReceiver()
  let bytesSent = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.url === '/redirect') { res.writeHead(302, { location: target.url }).end(); return }
      res.writeHead(200)
      const chunk = Buffer.alloc(64 * 1024, 120)
      const pump = (): void => { while (bytesSent < 50e6 && res.write(chunk)) bytesSent += chunk.length; if (bytesSent < 50e6) res.once('drain', pump); else res.end() }
      res.on('close', () => {})
      pump()
    })
  })
  const base = await listen(server)
  const keysFile = writeKeys([hookKey([{ id: 'r', url: `${base}/redirect`, secret: SECRET }, { id: 'big', url: `${base}/big`, secret: SECRET }])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_TIMEOUT_MS: '2000' })
  const key = gw.keys.all()[0]!
  await waitFor('started', async () => (await gw.webhooks.list(key)).every((v) => v.cursor !== null), 5000)
  await applier(gw.store)(7, 271)
  const head = await gw.store.head()
  await waitFor('big acked', async () => (await gw.webhooks.list(key)).find((v) => v.id === 'big')?.cursor === head, 5000)
  await waitFor('redirect attempted', async () => (await gw.webhooks.list(key)).find((v) => v.id === 'r')?.last_status === 302, 5000)
  expect((await gw.webhooks.list(key)).find((v) => v.id === 'r')).toMatchObject({ state: 'retrying', last_error: 'HTTP 302: redirect not followed' })
  expect(target.requests.length).toBe(0)
  expect(bytesSent).toBeLessThan(50e6)
}, 20_000)

it('with 3 endpoints of a host that never answer, another key\'s endpoint there is delivered at once', async () => {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => { if (req.url?.startsWith('/hang') !== true) res.writeHead(204).end() })
  })
  const base = await listen(server)
  const keysFile = writeKeys([
    hookKey([1, 2, 3].map((i) => ({ id: `h${i}`, url: `${base}/hang${i}`, secret: SECRET })), { key: 'slow-tenant-key', name: 'slow' }),
    hookKey([{ id: 'fast', url: `${base}/ok`, secret: SECRET }], { key: 'other-tenant-key', name: 'other' })
  ])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_TIMEOUT_MS: '3000' })
  const other = gw.keys.all().find((k) => k.name === 'other')!
  await waitFor('started', async () => { for (const k of gw.keys.all()) if ((await gw.webhooks.list(k)).some((v) => v.cursor === null)) return false; return true }, 5000)
  await applier(gw.store)(7, 271)
  const head = await gw.store.head()
  await waitFor('other tenant acknowledged', async () => (await gw.webhooks.list(other))[0]?.cursor === head, 2000)
}, 20_000)
