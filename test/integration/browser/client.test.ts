/**
 * `touchline/client` (/lib/client.js, as the gateway serves it) in headless Chromium against a real gateway
 * process on Redis: killed with SIGKILL mid-match and started again at the same address, the page's client
 * resumes from its cursor and ends equal to the store, with every change of the log once and in order and
 * jittered pauses under the cap; a bad key (401, which a browser only learns over HTTP), a revoked key
 * (4001) and too many connections (4029) stop it for good, with one attempt.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { ClientStatus, LiveFixture } from '@touchline/client'
import { clientRig, expectJitteredPauses, expectReplayedWhileDown, killMidMatch, recordsSince, type ClientRig, type GatewayProcess } from '../client/harness.ts'
import { HAVE_CHROMIUM, launchBrowser, watchErrors } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

interface PageState {
  state: string
  cursor: string | undefined
  fixtures: LiveFixture[]
  changes: Array<{ cursor: string, replayed: boolean }>
  statuses: ClientStatus[]
  opened: number[]
}

const KEYS = [
  { key: 'browser-main', name: 'main' },
  { key: 'browser-single', name: 'single', max_connections: 1 },
  { key: 'browser-gone', name: 'gone' }
]

describe.skipIf(!HAVE_CHROMIUM)('touchline/client in Chromium', () => {
  let browser: Browser
  let rig: ClientRig
  let gw: GatewayProcess

  beforeAll(async () => {
    rig = await clientRig(inject('redisUrl'), KEYS)
    gw = await rig.start()
    browser = await launchBrowser()
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await rig?.close()
  })

  /**
   * A page of the gateway's origin running a client of `key` on league 501, with a WebSocket that counts
   * its sockets; resolves with what connect() resolved.
   */
  async function pageClient (key: string, name = 't'): Promise<{ page: Page, errors: string[], connected: ClientStatus }> {
    const page = await browser.newPage()
    const errors = watchErrors(page)
    await page.goto(`${rig.url}/lib/card.css`)
    // As a string: vitest would rewrite a dynamic import() written in this file.
    const connected = await page.evaluate(`(async () => {
      const { TouchlineClient } = await import('/lib/client.js')
      const opened = []
      class Counting extends WebSocket { constructor (url) { super(url); opened.push(Date.now()) } }
      const client = new TouchlineClient({ url: location.origin, key: ${JSON.stringify(key)}, WebSocket: Counting, backoff: { baseMs: 100, capMs: 800 } })
      const t = globalThis[${JSON.stringify(name)}] = { client, opened, changes: [], statuses: [] }
      client.on('change', (e) => t.changes.push({ cursor: e.frame.cursor, replayed: e.replayed }))
      client.on('status', (s) => t.statuses.push(s))
      client.subscribe({ leagues: [501] })
      return await client.connect()
    })()`) as ClientStatus
    return { page, errors, connected }
  }

  async function read (page: Page, name = 't'): Promise<PageState> {
    return JSON.parse(await page.evaluate(`(() => {
      const t = globalThis[${JSON.stringify(name)}]
      return JSON.stringify({ state: t.client.status.state, cursor: t.client.cursor, fixtures: [...t.client.fixtures.values()], changes: t.changes, statuses: t.statuses, opened: t.opened })
    })()`) as string) as PageState
  }

  it('resumes after a SIGKILL and a restart: equal to the store, every change once and in order, jittered pauses under the cap', async () => {
    const celtic = await rig.matches.start(7301, 501, 'Celtic', 'Kilmarnock', 10)
    const hearts = await rig.matches.start(7302, 501, 'Hearts', 'Hibernian', 30)
    const { page, errors, connected } = await pageClient('browser-main')
    expect(connected).toEqual({ state: 'live' })
    await waitFor('the snapshot', async () => (await read(page)).fixtures.length === 2, 5000)
    const from = (await read(page)).cursor as string

    const probe = {
      state: async () => (await read(page)).state,
      changes: async () => (await read(page)).changes.length,
      cursor: async () => (await read(page)).cursor
    }
    const run = await killMidMatch(rig, gw, [celtic, hearts], probe)
    gw = run.gw

    const s = await read(page)
    for (const id of [7301, 7302]) expect(s.fixtures.find((f) => f.id === id)).toEqual(await rig.store.getFixture(id))
    expect(s.changes.map((c) => c.cursor)).toEqual(await recordsSince(rig.store, from))
    expectReplayedWhileDown(s.changes.map((c) => c.replayed))

    expectJitteredPauses(s.statuses, s.opened, run.downAt, 800)
    // While down the page said why in words (asked over HTTP: the browser hides the upgrade's failure).
    expect(s.statuses.some((st) => st.reason === 'unreachable' && /Cannot reach the live feed/.test(st.message ?? ''))).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  }, 90_000) // two gateway starts and 3.5 s down: slow on a loaded machine

  it('a bad key: refused "unauthorized" after one socket, learnt over HTTP', async () => {
    const { page, errors, connected } = await pageClient('not-a-key')
    expect(connected).toEqual({ state: 'refused', reason: 'unauthorized', message: 'The gateway does not know this key (bad key). Check the key.' })
    await sleep(1000)
    const s = await read(page)
    expect(s.opened).toHaveLength(1)
    expect(s.statuses.at(-1)?.state).toBe('refused')
    expect(errors).toEqual([])
    await page.close()
  })

  it('a revoked key: close 4001 on a keys reload, refused "revoked" after one socket', async () => {
    const { page, errors, connected } = await pageClient('browser-gone')
    expect(connected.state).toBe('live')
    rig.writeKeys(KEYS.filter((k) => k.name !== 'gone'))
    await gw.reloadKeys()
    await waitFor('refused', async () => (await read(page)).state === 'refused', 5000)
    await sleep(1000)
    const s = await read(page)
    expect(s.statuses.at(-1)).toEqual({ state: 'refused', reason: 'revoked', message: 'This key has been revoked. Ask for a new key.' })
    expect(s.opened).toHaveLength(1)
    expect(errors).toEqual([])
    rig.writeKeys(KEYS)
    await gw.reloadKeys()
    await page.close()
  })

  it('too many connections: close 4029, refused "too_many_connections" after one socket; the first stays live', async () => {
    const first = await pageClient('browser-single', 'first')
    expect(first.connected.state).toBe('live')
    const second = await pageClient('browser-single', 'second')
    expect(second.connected).toMatchObject({ state: 'refused', reason: 'too_many_connections' })
    await sleep(1000)
    expect((await read(second.page, 'second')).opened).toHaveLength(1)
    expect((await read(first.page, 'first')).state).toBe('live')
    await first.page.close()
    await second.page.close()
  })
})
