/**
 * `touchline/client` in Node 20 against a real gateway process on Redis: killed with SIGKILL mid-match and
 * started again, the client resumes from its cursor and ends equal to the store, having seen every change
 * of the log once and in order, with jittered pauses under the cap between its attempts; and it stops for
 * good, saying why, on a bad key (401), a revoked key (4001), too many connections (4029), and `forbidden`
 * for everything asked.
 */
import { execFile } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { WebSocket } from 'ws'
import { TouchlineClient, type ChangeEvent, type ClientStatus } from '@touchline/client'
import { clientRig, expectJitteredPauses, expectReplayedWhileDown, killMidMatch, recordsSince, type ClientRig, type GatewayProcess } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'
import { freePort } from '../../helpers/redis-server.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/**
 * A consumer's script: imports the library by the package's name (self-reference through
 * `exports["./client"]`), in plain Node 20 with no build step and no global WebSocket.
 */
const CONSUMER = `
import { TouchlineClient } from 'touchline/client'
const client = new TouchlineClient({ url: process.env.TL_URL, key: 'demo' })
client.subscribe({ leagues: [501] })
const snapshot = new Promise((resolve) => client.on('snapshot', resolve))
const status = await client.connect()
await snapshot
console.log(JSON.stringify({ status, globalWebSocket: typeof globalThis.WebSocket, fixtures: [...client.fixtures.keys()] }))
client.close()
`

/** The `ws` WebSocket, counting the sockets the client opens (its connection attempts). */
function countingSockets (): { WebSocket: new (url: string) => WebSocket, opened: number[] } {
  const opened: number[] = []
  class Counting extends WebSocket {
    constructor (url: string) {
      super(url)
      opened.push(Date.now())
    }
  }
  return { WebSocket: Counting, opened }
}

function watch (client: TouchlineClient): { changes: ChangeEvent[], statuses: ClientStatus[] } {
  const changes: ChangeEvent[] = []
  const statuses: ClientStatus[] = []
  client.on('change', (e) => changes.push(e))
  client.on('status', (s) => statuses.push(s))
  return { changes, statuses }
}

describe('touchline/client in Node: a gateway killed mid-match', () => {
  let rig: ClientRig
  let gw: GatewayProcess
  beforeAll(async () => {
    rig = await clientRig(inject('redisUrl'))
    gw = await rig.start()
  }, 90_000)
  afterAll(async () => { await rig?.close() })

  it('is imported as touchline/client by a plain Node 20 script, which takes ws for its socket', async () => {
    await rig.matches.start(7100, 501, 'Aberdeen', 'Dundee', 5)
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CONSUMER], { cwd: ROOT, env: { ...process.env, TL_URL: rig.url }, timeout: 20_000 })
    expect(JSON.parse(stdout)).toEqual({ status: { state: 'live' }, globalWebSocket: 'undefined', fixtures: [7100] })
  })

  it('resumes from its cursor after a SIGKILL and a restart: equal to the store, every change once and in order, jittered pauses under the cap', async () => {
    const celtic = await rig.matches.start(7101, 501, 'Celtic', 'Kilmarnock', 10)
    const hearts = await rig.matches.start(7102, 501, 'Hearts', 'Hibernian', 30)
    const sockets = countingSockets()
    const client = new TouchlineClient({ url: rig.url, key: 'demo', WebSocket: sockets.WebSocket, backoff: { baseMs: 100, capMs: 800 } })
    const { changes, statuses } = watch(client)
    client.subscribe({ leagues: [501] })
    expect((await client.connect()).state).toBe('live')
    await waitFor('the snapshot', () => client.fixtures.has(7101) && client.fixtures.has(7102), 5000)
    const from = client.cursor as string

    const probe = { state: async () => client.status.state, changes: async () => changes.length, cursor: async () => client.cursor }
    const run = await killMidMatch(rig, gw, [celtic, hearts], probe)
    gw = run.gw

    // Equal to the store: deltas applied on the client give exactly the stored fixtures.
    for (const id of [7100, 7101, 7102]) expect(client.fixtures.get(id)).toEqual(await rig.store.getFixture(id))
    // Every change of the log after its snapshot, once, in order: none missed while down, none twice.
    expect(changes.map((c) => c.frame.cursor)).toEqual(await recordsSince(rig.store, from))
    expectReplayedWhileDown(changes.map((c) => c.replayed))

    expectJitteredPauses(statuses, sockets.opened, run.downAt, 800)
    client.close()
  }, 90_000) // two gateway starts and 3.5 s down: slow on a loaded machine
})

describe('touchline/client in Node: refusals stop it', () => {
  let rig: ClientRig
  let gw: GatewayProcess
  const keys = [
    { key: 'client-main', name: 'main' },
    { key: 'client-gone', name: 'gone' },
    { key: 'client-single', name: 'single', max_connections: 1 },
    { key: 'client-one', name: 'one', max_connections: 1 },
    { key: 'client-scoped', name: 'scoped', leagues: [501] }
  ]
  beforeAll(async () => {
    rig = await clientRig(inject('redisUrl'), keys)
    gw = await rig.start()
    await rig.matches.start(7201, 501, 'Celtic', 'Kilmarnock', 10)
  }, 90_000)
  afterAll(async () => { await rig?.close() })

  /** A client of `key` following league 501, with its socket count and statuses. */
  function clientOf (key: string, leagues = [501]) {
    const sockets = countingSockets()
    const client = new TouchlineClient({ url: rig.url, key, WebSocket: sockets.WebSocket, backoff: { baseMs: 100, capMs: 400 } })
    const { statuses } = watch(client)
    client.subscribe({ leagues })
    return { client, sockets, statuses }
  }

  /** Refused with `reason`, and no further socket in the next second (4 pauses' worth). */
  async function expectStopped (c: ReturnType<typeof clientOf>, reason: string): Promise<void> {
    await waitFor(() => `refused (${reason}); statuses ${JSON.stringify(c.statuses)}`, () => c.client.status.state === 'refused', 10_000)
    expect(c.client.status).toMatchObject({ state: 'refused', reason })
    expect(c.client.status.message).toMatch(/key/)
    const sockets = c.sockets.opened.length
    await sleep(1000)
    expect(c.sockets.opened.length).toBe(sockets)
    expect(c.statuses.at(-1)?.state).toBe('refused')
  }

  it('a bad key: HTTP 401 before the upgrade, one attempt, refused "unauthorized" with a clear message', async () => {
    const c = clientOf('not-a-key')
    const status = await c.client.connect()
    expect(status).toEqual({ state: 'refused', reason: 'unauthorized', message: 'The gateway does not know this key (bad key). Check the key.' })
    await expectStopped(c, 'unauthorized')
    expect(c.sockets.opened).toHaveLength(1)
  })

  it('a revoked key: close 4001 on a keys reload, refused "revoked"', async () => {
    const c = clientOf('client-gone')
    expect((await c.client.connect()).state).toBe('live')
    rig.writeKeys(keys.filter((k) => k.name !== 'gone'))
    await gw.reloadKeys()
    await expectStopped(c, 'revoked')
    expect(c.sockets.opened).toHaveLength(1)
    rig.writeKeys(keys)
    await gw.reloadKeys()
  })

  it('too many connections: close 4029, refused "too_many_connections"', async () => {
    const first = clientOf('client-single')
    expect((await first.client.connect()).state).toBe('live')
    const second = clientOf('client-single')
    second.client.connect().catch(() => {})
    await expectStopped(second, 'too_many_connections')
    expect(second.sockets.opened).toHaveLength(1)
    expect(first.client.status.state).toBe('live')
    first.client.close()
  })

  /**
   * The `ws` WebSocket, noting after each thing that ends a connection attempt (its close, an error frame) has
   * been handled, with the promise callbacks it queued, whether connect() had settled then.
   */
  function settlingSockets (settled: () => boolean): { WebSocket: new (url: string) => WebSocket, ends: boolean[] } {
    const ends: boolean[] = []
    class Settling extends WebSocket {
      constructor (url: string) {
        super(url)
        this.on('close', () => { setImmediate(() => ends.push(settled())) })
        this.on('message', (data) => {
          if ((JSON.parse(String(data)) as { type: string }).type === 'error') setImmediate(() => ends.push(settled()))
        })
      }
    }
    return { WebSocket: Settling, ends }
  }

  it.each([
    // A key of its own: the test above's last connection of client-single may not be gone from the gateway yet.
    ['too_many_connections', 'client-one', [501]],
    ['forbidden', 'client-scoped', [8]]
  ])('refused %s: connect() settles in the turn that handles the gateway\'s answer, with no other attempt', async (reason, key, leagues) => {
    const first = reason === 'too_many_connections' ? clientOf(key) : undefined
    if (first !== undefined) expect((await first.client.connect()).state).toBe('live')
    let settled = false
    const sockets = settlingSockets(() => settled)
    const client = new TouchlineClient({ url: rig.url, key, WebSocket: sockets.WebSocket, backoff: { baseMs: 50, capMs: 100 } })
    client.subscribe({ leagues })
    const status = await client.connect().finally(() => { settled = true })
    expect(status).toMatchObject({ state: 'refused', reason })
    await waitFor('the answer handled', () => sockets.ends.length > 0, 5000)
    expect(sockets.ends[0], 'connect() had settled once the gateway\'s answer was handled').toBe(true)
    client.close()
    first?.client.close()
  })

  it('refused unauthorized (HTTP 401 before the upgrade): connect() settles as its one question over HTTP is answered', async () => {
    let settled = false
    const answers: boolean[] = []
    const fetchBefore = globalThis.fetch
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      const res = await fetchBefore(...args)
      setImmediate(() => answers.push(settled))
      return res
    }
    try {
      const client = new TouchlineClient({ url: rig.url, key: 'not-a-key', backoff: { baseMs: 50, capMs: 100 } })
      client.subscribe({ leagues: [501] })
      const status = await client.connect().finally(() => { settled = true })
      expect(status).toMatchObject({ state: 'refused', reason: 'unauthorized' })
      await waitFor('the question answered', () => answers.length > 0, 5000)
      // One question, and connect() had settled once its answer was read: one round trip after the socket's.
      expect(answers).toEqual([true])
      client.close()
    } finally {
      globalThis.fetch = fetchBefore
    }
  })

  it('forbidden for everything asked: refused "forbidden"; a partly forbidden subscribe keeps the rest', async () => {
    const none = clientOf('client-scoped', [8])
    await none.client.connect()
    await expectStopped(none, 'forbidden')

    const some = clientOf('client-scoped', [501, 8])
    expect((await some.client.connect()).state).toBe('live')
    await waitFor('the allowed league\'s snapshot', () => some.client.fixtures.has(7201), 5000)
    expect(some.client.status.state).toBe('live')
    some.client.close()
  })
})

describe('touchline/client in Node: a subscription refused settles connect()', () => {
  let rig: ClientRig
  beforeAll(async () => {
    rig = await clientRig(inject('redisUrl'))
    await rig.start()
    await rig.matches.start(7401, 501, 'Celtic', 'Kilmarnock', 10)
  }, 90_000)
  afterAll(async () => { await rig?.close() })

  it('throws at construction for a URL without a scheme, or that is not the gateway\'s http(s) address, and for a missing key', () => {
    for (const url of ['127.0.0.1:8080', 'localhost', 'ftp://127.0.0.1:8080', '', 'http://']) {
      expect(() => new TouchlineClient({ url, key: 'demo' }), url).toThrow(/url must be the gateway's http:\/\/ or https:\/\/ address/)
    }
    expect(() => new TouchlineClient({ url: rig.url, key: '' })).toThrow(/key must be a client key/)
    // ws:// and a trailing slash are taken as the gateway's address.
    expect(() => new TouchlineClient({ url: `${rig.url.replace('http', 'ws')}/`, key: 'demo' })).not.toThrow()
  })

  it('refuses, before anything is sent, what the gateway would refuse: an unknown kind, an id that is not one, a bad format or interval, too many ids', () => {
    const sockets = countingSockets()
    const client = new TouchlineClient({ url: rig.url, key: 'demo', WebSocket: sockets.WebSocket })
    const asked = client.subscription
    expect(() => client.subscribe({ leagues: '*', kinds: ['goal'] } as never)).toThrow(/kinds holds "goal", not a change kind/)
    expect(() => client.subscribe({ fixtures: ['abc'] } as never)).toThrow(/fixtures holds "abc", which is not an id/)
    expect(() => client.subscribe({ leagues: 501 } as never)).toThrow(/leagues must be an array of ids or "\*"/)
    expect(() => client.subscribe({ leagues: [501], format: 'compact' } as never)).toThrow(/format must be "full" or "delta"/)
    expect(() => client.subscribe({ leagues: [501], odds: true, format: 'full', conflateMs: -1 })).toThrow(/conflateMs must be a whole number/)
    expect(() => client.subscribe({ fixtures: Array.from({ length: 101 }, (_, i) => i + 1) })).toThrow(/at most 100/)
    // Nothing of it was taken, and no socket was opened.
    expect(client.subscription).toEqual(asked)
    expect(sockets.opened).toEqual([])
    client.close()
  })

  /**
   * A socket that changes the first subscribe on its way out as `rewrite` says, as a gateway with other rules
   * (an older version, a lower limit) would see a subscribe this client takes; and notes whether connect()
   * had settled once the gateway's error frame was handled (the same turn: within one round trip).
   */
  function rewritingSockets (rewrite: (frame: Record<string, unknown>) => Record<string, unknown>, settled: () => boolean) {
    const seen = { errors: 0, settledAtError: false, checked: false, opened: 0 }
    class Rewriting extends WebSocket {
      #rewritten = false
      constructor (url: string) {
        super(url)
        seen.opened++
        this.on('message', (data) => {
          if ((JSON.parse(String(data)) as { type: string }).type !== 'error') return
          seen.errors++
          // After the client's own handler of this frame, and the promise callbacks it queued.
          setImmediate(() => { seen.settledAtError = settled(); seen.checked = true })
        })
      }

      override send (data: string): void {
        const frame = JSON.parse(data) as Record<string, unknown>
        if (frame.op === 'subscribe' && !this.#rewritten) {
          this.#rewritten = true
          super.send(JSON.stringify(rewrite(frame)))
        } else super.send(data)
      }
    }
    return { WebSocket: Rewriting, seen }
  }

  it.each([
    ['invalid_message', 'invalid_subscription', (f: Record<string, unknown>) => ({ ...f, format: 'full', kinds: ['goal'] })],
    ['limit_exceeded', 'limit_exceeded', (f: Record<string, unknown>) => ({ ...f, fixtures: Array.from({ length: 101 }, (_, i) => i + 1) })]
  ])('a subscribe the gateway answers %s: connect() resolves refused (%s) with the gateway\'s words as the error frame is handled, and tries no more', async (code, reason, rewrite) => {
    let settled = false
    const sockets = rewritingSockets(rewrite, () => settled)
    const client = new TouchlineClient({ url: rig.url, key: 'demo', WebSocket: sockets.WebSocket as never, backoff: { baseMs: 50, capMs: 100 } })
    const errors: Array<{ code: string }> = []
    client.on('error', (e) => errors.push(e))
    client.subscribe({ leagues: [501] })
    const status = await client.connect().finally(() => { settled = true })
    expect(status).toMatchObject({ state: 'refused', reason, message: expect.stringContaining('The gateway said:') })
    expect(errors.map((e) => e.code)).toEqual([code])
    await waitFor('the error frame handled', () => sockets.seen.checked, 5000)
    expect(sockets.seen.errors).toBe(1)
    // Settled in the turn that handled the gateway's answer: one round trip, however busy the machine.
    expect(sockets.seen.settledAtError, 'connect() had settled once the error frame was handled').toBe(true)
    // Asking again would be refused the same way: the client stays refused, on its one socket.
    await client.connect().then((s) => expect(s.state).toBe('refused'))
    expect(sockets.seen.opened).toBe(1)
    client.close()
  })
})

describe('touchline/client in Node: unsubscribe and close', () => {
  let rig: ClientRig
  beforeAll(async () => {
    rig = await clientRig(inject('redisUrl'))
    await rig.start()
  }, 90_000)
  afterAll(async () => { await rig?.close() })

  /** The `ws` WebSocket, keeping every frame the server sent, parsed. */
  function recordingSockets (): { WebSocket: new (url: string) => WebSocket, frames: Array<{ type: string, fixture_id?: number }>, opened: () => number } {
    const frames: Array<{ type: string, fixture_id?: number }> = []
    let opened = 0
    class Recording extends WebSocket {
      constructor (url: string) {
        super(url)
        opened++
        this.on('message', (data) => frames.push(JSON.parse(String(data)) as { type: string }))
      }
    }
    return { WebSocket: Recording, frames, opened: () => opened }
  }

  it('forgets the fixtures it no longer follows at once, and the server stops sending them; following again brings them back', async () => {
    const dropped = await rig.matches.start(7301, 501, 'Aberdeen', 'Ross County', 20)
    const kept = await rig.matches.start(7302, 271, 'Brondby', 'Odense', 20)
    const sockets = recordingSockets()
    const client = new TouchlineClient({ url: rig.url, key: 'demo', WebSocket: sockets.WebSocket })
    const removed: number[] = []
    const changed: number[] = []
    client.on('fixture', (e) => { if (e.removed) removed.push(e.fixture.id) })
    client.on('change', (e) => changed.push(e.fixture.id))
    client.subscribe({ leagues: [501, 271] })
    expect((await client.connect()).state).toBe('live')
    await waitFor('the snapshot', () => client.fixtures.has(7301) && client.fixtures.has(7302), 5000)

    client.unsubscribe({ leagues: [501] })
    expect([...client.fixtures.keys()]).toEqual([7302])
    expect(removed).toEqual([7301])
    await waitFor('the server\'s unsubscribed', () => sockets.frames.some((f) => f.type === 'unsubscribed'), 5000)
    const heard = sockets.frames.length

    await dropped.goal('home', 'Watt', 25)
    await kept.goal('away', 'Frederiksen', 26)
    await waitFor('the followed league\'s goal', () => client.fixtures.get(7302)?.away.score === 1, 5000)
    expect(client.fixtures.has(7301)).toBe(false)
    expect(changed).not.toContain(7301)
    expect(sockets.frames.slice(heard).filter((f) => f.type === 'change').map((f) => f.fixture_id)).toEqual([7302])
    // No resubscribe to heal a "lost" frame of a fixture it let go: still the one socket, no subscribe sent.
    expect(sockets.opened()).toBe(1)

    client.subscribe({ leagues: [501] })
    await waitFor('the league followed again, with its goal', () => client.fixtures.get(7301)?.home.score === 1, 5000)
    client.close()
  })

  it('resolves a connect() still waiting when close() comes first, with state closed', async () => {
    const port = await freePort()
    const client = new TouchlineClient({ url: `http://127.0.0.1:${port}`, key: 'demo', backoff: { baseMs: 50, capMs: 100 } })
    client.subscribe({ leagues: [501] })
    const connected = client.connect()
    await waitFor('the first attempt failing', () => client.status.state !== 'connecting', 5000)
    client.close()
    await expect(connected).resolves.toEqual({ state: 'closed' })
  })
})
