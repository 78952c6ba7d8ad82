/**
 * Deliveries against receivers that misbehave, over real HTTP servers on local ports and real in-process
 * gateways: a 2xx whose body trickles is acknowledged at its status; endpoints of one host that never
 * answer cannot stall another key's endpoint on that host (one connection per endpoint); an endpoint a keys
 * reload fixed starts its failing time again.
 */
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { expect, it, onTestFinished } from 'vitest'
import { applier } from '../fanout/harness.ts'
import { hookKey, SECRET, startHookGateway, startReceiver, writeKeys } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

async function listen (server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  const a = server.address()
  return `http://127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`
}

it('a 2xx answered at once whose body then trickles is acknowledged', async () => {
  let requests = 0
  const timers: NodeJS.Timeout[] = []
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      requests++
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('o')
      // A slow-drip body that never ends: one byte every 100 ms.
      timers.push(setInterval(() => { res.write('k') }, 100))
    })
  })
  onTestFinished(() => { for (const t of timers) clearInterval(t) })
  const base = await listen(server)
  const keysFile = writeKeys([hookKey([{ id: 'drip', url: `${base}/hook`, secret: SECRET }])])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_TIMEOUT_MS: '500' })
  const key = gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  const head = await gw.store.head()
  // The 200 status line comes at once, the body never ends: acknowledged at the status, sent once (read to
  // its end, it was a timeout and the same batch re-sent until the endpoint paused).
  await waitFor('acknowledged', async () => (await gw.webhooks.list(key))[0]?.cursor === head, 4000)
    .catch(async (err: unknown) => {
      const v = (await gw.webhooks.list(key))[0]
      throw new Error(`${String(err)}; requests=${requests} state=${v?.state} last_error=${v?.last_error}`)
    })
  expect(requests).toBe(1)
  expect((await gw.webhooks.list(key))[0]).toMatchObject({ state: 'active', last_status: 200, last_error: null })
}, 20_000)

it('endpoints of one key that never answer do not stall another key\'s endpoint on the same host', async () => {
  let okHits = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.url?.startsWith('/hang') === true) return // accepts, never answers
      okHits++
      res.writeHead(204).end()
    })
  })
  const base = await listen(server)
  const keysFile = writeKeys([
    hookKey([1, 2, 3, 4].map((i) => ({ id: `h${i}`, url: `${base}/hang${i}`, secret: SECRET })), { key: 'slow-tenant-key', name: 'slow' }),
    hookKey([{ id: 'fast', url: `${base}/ok`, secret: SECRET }], { key: 'other-tenant-key', name: 'other' })
  ])
  const gw = await startHookGateway(keysFile, { TOUCHLINE_WEBHOOK_TIMEOUT_MS: '3000' })
  const other = gw.keys.all().find((k) => k.name === 'other')!
  const all = async (): Promise<boolean> => {
    for (const k of gw.keys.all()) if ((await gw.webhooks.list(k)).some((v) => v.cursor === null)) return false
    return true
  }
  await waitFor('endpoints started', all, 5000)
  await applier(gw.store)(7, 271)
  const head = await gw.store.head()
  const t0 = Date.now()
  // The other key's receiver answers in ~0 ms; it should be acknowledged well within its own timeout.
  await waitFor('other tenant acknowledged', async () => (await gw.webhooks.list(other))[0]?.cursor === head, 2000)
    .catch(async (err: unknown) => {
      const v = (await gw.webhooks.list(other))[0]
      throw new Error(`${String(err)}; after ${Date.now() - t0} ms okHits=${okHits} state=${v?.state} last_error=${v?.last_error}`)
    })
}, 20_000)

it('after a paused endpoint is fixed by a keys reload (new URL), one transient failure does not pause it again at once', async () => {
  const dead = await startReceiver(() => 500)
  const keysPath = writeKeys([hookKey([{ id: 'p', url: dead.url, secret: SECRET }])])
  const gw = await startHookGateway(keysPath, { TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS: '1000' })
  const key = () => gw.keys.all()[0]!
  await waitFor('endpoint started', async () => (await gw.webhooks.list(key()))[0]?.cursor !== null, 5000)
  await applier(gw.store)(7, 271)
  await waitFor('paused', async () => (await gw.webhooks.list(key()))[0]?.state === 'paused', 5000)

  // The operator points the endpoint at a working receiver, which has one hiccup (a 503) then answers 200.
  const fixed = await startReceiver((n) => n === 0 ? 503 : 200)
  writeFileSync(keysPath, JSON.stringify([hookKey([{ id: 'p', url: fixed.url, secret: SECRET }])]))
  await gw.reloadKeys()
  const head = await gw.store.head()
  // README: pause after failing PAUSE_AFTER_MS (1 s here) without a success; the first retry is 10-20 ms away.
  await waitFor('delivered to the fixed URL', async () => (await gw.webhooks.list(key()))[0]?.cursor === head, 4000)
    .catch(async (err: unknown) => {
      const v = (await gw.webhooks.list(key()))[0]
      throw new Error(`${String(err)}; requests to fixed=${fixed.requests.length} state=${v?.state} failing_since=${v?.failing_since}`)
    })
}, 20_000)
