/**
 * TouchlineClient (lib/client.js) and Board in headless Chromium against a scripted WebSocket: never two
 * sockets at once, additions made offline subscribed with their snapshot, errors answering a subscribe
 * (forbidden, internal) handled, a lost delta healed once with since, and clock-only frames updating just
 * the clock (a row is updated in place, never rebuilt).
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HAVE_CHROMIUM, launchBrowser, startUiGateway, watchErrors, type UiGateway } from './harness.ts'

/** Installs a scripted WebSocket as `globalThis.WebSocket`; sockets are in `globalThis.sockets`. */
const FAKE_SOCKET = `
  class FakeSocket {
    static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3
    constructor (url) { this.url = url; this.readyState = 0; this.sent = []; this.closedWith = undefined; globalThis.sockets.push(this) }
    send (data) { this.sent.push(JSON.parse(data)) }
    close (code) { this.closedWith = code ?? 1005; this.readyState = 3 }
    open () { this.readyState = 1; this.onopen?.({}) }
    frame (f) { this.onmessage?.({ data: JSON.stringify(f) }) }
  }
  globalThis.sockets = []
  globalThis.WebSocket = FakeSocket
`

describe.skipIf(!HAVE_CHROMIUM)('browser live client', () => {
  let browser: Browser
  let gw: UiGateway

  beforeAll(async () => {
    gw = await startUiGateway()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await gw?.close()
  })

  async function blank (): Promise<{ page: Page, errors: string[] }> {
    const page = await browser.newPage()
    const errors = watchErrors(page)
    await page.goto(`${gw.url}/status`)
    await page.evaluate(FAKE_SOCKET)
    // As a string: vitest would rewrite a dynamic import() written in this file.
    await page.evaluate(`Promise.all([import('/lib/client.js'), import('/lib/board.js')])
      .then(([client, board]) => { globalThis.TouchlineClient = client.TouchlineClient; globalThis.Board = board.Board })`)
    return { page, errors }
  }

  it('keeps one socket: a reconnection closes the one still connecting, and "online" waits for it', async () => {
    const { page, errors } = await blank()
    const result = await page.evaluate(async () => {
      const g = globalThis as any
      const client = new g.TouchlineClient({ url: g.location.origin, key: 'demo' })
      client.subscribe({ leagues: [501] })
      client.connect()
      const first = g.sockets[0]
      first.open()
      first.frame({ type: 'hello', heartbeat_ms: 60_000 })
      first.frame({ type: 'subscribed' })
      first.frame({ type: 'snapshot', ref: first.sent[0].ref, cursor: 'c1', fixtures: [] })
      first.onclose({ code: 1006 }) // dropped: a retry is scheduled, state reconnecting
      client.reconnectNow() // a new socket, connecting
      const second = g.sockets[1]
      g.dispatchEvent(new g.Event('online')) // still reconnecting, but a socket is trying: no third one
      const afterOnline = g.sockets.length
      client.reconnectNow() // a direct reconnection closes the connecting socket first
      const third = g.sockets[2]
      third.open()
      third.frame({ type: 'hello', heartbeat_ms: 60_000 })
      client.close()
      return {
        afterOnline,
        total: g.sockets.length,
        secondClosed: second.closedWith !== undefined,
        secondDetached: second.onmessage === null && second.onclose === null,
        resumed: third.sent[0]
      }
    })
    expect(result.afterOnline).toBe(2)
    expect(result.total).toBe(3)
    expect(result.secondClosed).toBe(true)
    expect(result.secondDetached).toBe(true)
    expect(result.resumed).toMatchObject({ op: 'subscribe', leagues: [501], since: 'c1', snapshot: false, format: 'delta' })
    expect(errors).toEqual([])
  })

  it('subscribes what was added while offline with its snapshot, apart from the resumed subscription', async () => {
    const { page, errors } = await blank()
    const sent = await page.evaluate(async () => {
      const g = globalThis as any
      const client = new g.TouchlineClient({ url: g.location.origin, key: 'demo' })
      client.subscribe({ leagues: [501] })
      client.connect()
      g.sockets[0].open()
      g.sockets[0].frame({ type: 'hello', heartbeat_ms: 60_000 })
      g.sockets[0].frame({ type: 'snapshot', ref: g.sockets[0].sent[0].ref, cursor: 'c1', fixtures: [] })
      g.sockets[0].onclose({ code: 1006 })
      client.subscribe({ leagues: [271], teams: [53] }) // no socket open: remembered
      client.reconnectNow()
      g.sockets[1].open()
      g.sockets[1].frame({ type: 'hello', heartbeat_ms: 60_000 })
      client.close()
      return g.sockets[1].sent
    })
    expect(sent).toHaveLength(2)
    expect(sent[0]).toMatchObject({ leagues: [501], since: 'c1', snapshot: false })
    expect(sent[0].teams).toBeUndefined()
    expect(sent[1]).toMatchObject({ leagues: [271], teams: [53], snapshot: true })
    expect(String(sent[1].ref)).toMatch(/^more-/)
    expect(errors).toEqual([])
  })

  it('drops forbidden leagues and resubscribes, is refused when none is left, and retries a failed read with since', async () => {
    const { page, errors } = await blank()
    const result = await page.evaluate(async () => {
      const g = globalThis as any
      const states: any[] = []
      const client = new g.TouchlineClient({ url: g.location.origin, key: 'demo' })
      client.on('status', (s: any) => states.push(s))
      client.subscribe({ leagues: [501, 8] })
      client.connect()
      const ws = g.sockets[0]
      ws.open()
      ws.frame({ type: 'hello', heartbeat_ms: 60_000 })
      ws.frame({ type: 'error', ref: ws.sent[0].ref, code: 'forbidden', message: "leagues outside this key's scope: 8", leagues: [8] })
      const retried = ws.sent[1]
      ws.frame({ type: 'subscribed', ref: retried.ref })
      ws.frame({ type: 'snapshot', ref: retried.ref, cursor: 'c7', fixtures: [] })
      ws.frame({ type: 'error', ref: retried.ref, code: 'internal', message: 'could not read' })
      await new Promise((resolve) => setTimeout(resolve, 1300))
      const caughtUp = ws.sent[2]
      ws.frame({ type: 'error', ref: caughtUp.ref, code: 'forbidden', message: "leagues outside this key's scope: 501", leagues: [501] })
      return { retried, caughtUp, leagues: client.subscription.leagues, states, closed: ws.closedWith !== undefined }
    })
    expect(result.retried).toMatchObject({ op: 'subscribe', leagues: [501], snapshot: true })
    expect(result.caughtUp).toMatchObject({ op: 'subscribe', leagues: [501], since: 'c7', snapshot: false })
    expect(result.leagues).toEqual([])
    expect(result.states.at(-1)).toEqual({ state: 'refused', reason: 'forbidden', message: 'This key may not follow any of the leagues, fixtures or teams asked for.' })
    expect(result.states.map((s: any) => s.state)).toContain('live')
    expect(result.closed).toBe(true)
    expect(errors).toEqual([])
  })

  it('heals a lost delta frame with since (once while the replay is under way), and takes each change once', async () => {
    const { page, errors } = await blank()
    const result = await page.evaluate(async () => {
      const g = globalThis as any
      const client = new g.TouchlineClient({ url: g.location.origin, key: 'demo' })
      const seen: string[] = []
      const goals: any[] = []
      client.on('change', (e: any) => seen.push(e.frame.cursor))
      client.on('goal', (e: any) => goals.push({ side: e.side, score: e.score, replayed: e.replayed }))
      client.subscribe({ leagues: [501] })
      client.connect()
      const ws = g.sockets[0]
      ws.open()
      ws.frame({ type: 'hello', heartbeat_ms: 60_000 })
      const fx = (version: number, home: number) => ({
        id: 1,
        league_id: 501,
        version,
        state: { code: 'INPLAY_1ST_HALF', name: '1st half', phase: 'live' },
        minute: 10,
        home: { name: 'Celtic', score: home },
        away: { name: 'Kilmarnock', score: 0 },
        events: [],
        scores: { current: { home, away: 0 } },
        starting_at: null
      })
      const goal = (version: number, home: number) => ({
        type: 'change',
        cursor: `e:${version}`,
        fixture_id: 1,
        league_id: 501,
        version,
        at: new Date().toISOString(),
        changes: [{ kind: 'score_changed', home, away: 0, previous: { home: home - 1, away: 0 } }]
      })
      ws.frame({ type: 'subscribed', ref: ws.sent[0].ref })
      ws.frame({ type: 'snapshot', ref: ws.sent[0].ref, cursor: 'e:1', fixtures: [fx(1, 0)] })
      ws.frame(goal(2, 1)) // applied
      ws.frame(goal(4, 3)) // version 3 lost: heal from e:2
      ws.frame(goal(5, 4)) // still a gap: the heal under way covers it
      const heal = ws.sent.slice(1)
      ws.frame({ type: 'subscribed', ref: heal[0].ref })
      ws.frame({ type: 'replay', ref: heal[0].ref, recovered: true, count: 3, cursor: 'e:5' })
      ws.frame({ ...goal(3, 2), fixture: fx(3, 2) })
      ws.frame({ ...goal(4, 3), fixture: fx(4, 3) })
      ws.frame({ ...goal(5, 4), fixture: fx(5, 4) })
      ws.frame({ ...goal(5, 4), fixture: fx(5, 4) }) // a duplicate: dropped
      ws.frame(goal(6, 5)) // a delta again, on the healed fixture
      client.close()
      return { heal, seen, goals, cursor: client.cursor, score: client.fixtures.get(1).home.score }
    })
    expect(result.heal).toHaveLength(1)
    expect(result.heal[0]).toMatchObject({ op: 'subscribe', leagues: [501], since: 'e:2', snapshot: false })
    expect(result.seen).toEqual(['e:2', 'e:3', 'e:4', 'e:5', 'e:6'])
    expect(result.goals.map((g: any) => g.score.home)).toEqual([1, 2, 3, 4, 5])
    expect(result.goals.map((g: any) => g.replayed)).toEqual([false, true, true, true, false])
    expect(result.cursor).toBe('e:6')
    expect(result.score).toBe(5)
    expect(errors).toEqual([])
  })

  it('updates only the clock on a clock-only frame, keeps the row through a goal, and forgets a removed fixture\'s highlight', async () => {
    const { page, errors } = await blank()
    const result = await page.evaluate(async () => {
      const g = globalThis as any
      const { Board, document } = g
      const root = document.createElement('div')
      const announcer = document.createElement('div')
      document.body.append(root, announcer)
      const board = new Board(root, announcer)
      const fx = (minute: number, home = 0): any => ({
        id: 1,
        league_id: 501,
        version: minute,
        state: { code: 'INPLAY_1ST_HALF', name: '1st half', phase: 'live' },
        minute,
        home: { name: 'Celtic', score: home },
        away: { name: 'Kilmarnock', score: 0 },
        events: [],
        scores: {},
        starting_at: null
      })
      const fixtures = new Map([[1, fx(10)]])
      const apply = (u: any): void => { board.feed(u, fixtures); board.show(fixtures) }
      apply({ kind: 'snapshot', partial: false })
      const row = root.querySelector('.tl-row')
      let placed = 0
      const set = board.stack.set.bind(board.stack)
      board.stack.set = (items: unknown[]) => { placed++; set(items) }
      fixtures.set(1, fx(11))
      apply({ kind: 'change', replayed: false, frame: { fixture_id: 1, cursor: 'c', changes: [{ kind: 'clock', minute: 11, previous: 10 }], fixture: fx(11) } })
      const clock = root.querySelector('.tl-clock')?.textContent
      const label = root.querySelector('article')?.getAttribute('aria-label')
      const sameRow = root.querySelector('.tl-row') === row
      const goal = { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }
      fixtures.set(1, fx(12, 1))
      apply({ kind: 'change', replayed: false, frame: { fixture_id: 1, cursor: 'd', changes: [goal], fixture: fx(12, 1) } })
      const keptThroughGoal = root.querySelector('.tl-row') === row
      const score = root.querySelector('.tl-score')?.textContent
      const hadHighlight = board.scored.has(1)
      fixtures.delete(1)
      apply({ kind: 'expired', fixtureId: 1 })
      return { clock, label, sameRow, placed, keptThroughGoal, score, hadHighlight, scoredAfter: board.scored.size, cards: root.querySelectorAll('article').length }
    })
    expect(result.clock).toContain("11'")
    expect(result.label).toContain('minute 11')
    expect(result.sameRow).toBe(true)
    // The row is updated in place, never rebuilt (focus stays on it): the goal changed its score only.
    expect(result.keptThroughGoal).toBe(true)
    expect(result.score).toBe('1-0')
    expect(result.placed).toBe(1) // the removal; not the clock tick, not the goal
    expect(result.hadHighlight).toBe(true)
    expect(result.scoredAfter).toBe(0)
    expect(result.cards).toBe(0)
    expect(errors).toEqual([])
  })

  it('runs the match clock itself: the minute moves with no frame, at the clock\'s rate', async () => {
    const { page, errors } = await blank()
    const result = await page.evaluate(async () => {
      const g = globalThis as any
      const { Board, document } = g
      const root = document.createElement('div')
      document.body.append(root)
      const board = new Board(root, document.createElement('div'))
      // A clock at 60 match seconds per second that read 10:00 just now: one minute a second from here.
      const started = new Date(Date.now() - 10 * 60_000 / 60).toISOString()
      const f = {
        id: 1,
        league_id: 501,
        version: 3,
        state: { code: 'INPLAY_1ST_HALF', name: '1st half', phase: 'live' },
        minute: 10,
        clock: { period_started_at: started, counts_from: 0, length: 45, added: null, rate: 60, ticking: true },
        home: { name: 'Celtic', score: 0 },
        away: { name: 'Kilmarnock', score: 0 },
        events: [],
        scores: {},
        starting_at: null
      }
      board.show(new Map([[1, f]]))
      const text = () => root.querySelector('.tl-clock-text')?.textContent
      // Each reading with the match minute the clock stood at just before and just after it: a busy machine
      // may run the page's one-second ticker late, but never ahead of the clock.
      const read = () => { const before = Date.now(); const shown = text(); return { before, shown, after: Date.now() } }
      const first = read()
      await new Promise((resolve) => setTimeout(resolve, 3200))
      const later = read()
      return { startedMs: Date.parse(started), first, later, label: root.querySelector('article')?.getAttribute('aria-label') }
    })
    const minuteAt = (ms: number): number => Math.floor((ms - result.startedMs) / 1000)
    const shown = (r: { shown: string }): number => Number(r.shown.replace("'", ''))
    // Drawn at once with the clock's minute, then moved by the page's own ticker: no frame came.
    expect(shown(result.first)).toBeGreaterThanOrEqual(minuteAt(result.first.before) - 1)
    expect(shown(result.first)).toBeLessThanOrEqual(minuteAt(result.first.after))
    // Three seconds on at 60x: three minutes on, the ticker at most one tick (a minute) behind the clock.
    expect(shown(result.later)).toBeGreaterThanOrEqual(Math.max(minuteAt(result.later.before) - 1, shown(result.first) + 2))
    expect(shown(result.later)).toBeLessThanOrEqual(minuteAt(result.later.after))
    expect(result.label).toContain(`minute ${shown(result.later)}`)
    expect(errors).toEqual([])
  })
})
