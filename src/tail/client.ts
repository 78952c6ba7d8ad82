/**
 * `touchline tail`: a terminal client of the WebSocket protocol (DESIGN §4). Follows the leagues and
 * fixtures asked for (or, with neither, every league the key sees: the passthrough's league list plus the
 * leagues with a live fixture, checked again every 30 s), prints each change, and after a dropped
 * connection reconnects with backoff and resumes from the last cursor it printed, so nothing is missed
 * or printed twice.
 *
 * stdout carries only the changes (one readable line each, or one JSON change frame per line with
 * `json`); connection news goes to stderr.
 */
import WebSocket from 'ws'
import type { ChangeRecord, LiveFixture } from '../live/types.ts'
import { clean, connectionLostLine, describe, fixtureLine } from './format.ts'

export interface TailOptions {
  /** Gateway base URL, e.g. http://127.0.0.1:8080 */
  url: string
  key: string
  leagues: number[]
  fixtures: number[]
  /** Resume point for the first subscribe; without it, the first subscribe prints a snapshot. */
  since?: string
  json: boolean
  color: boolean
  out: (line: string) => void
  err: (line: string) => void
  /** Aborting closes the connection and resolves `runTail` with 0. */
  signal?: AbortSignal
  /** Longest pause between reconnection attempts, ms. @default 15_000 */
  maxBackoffMs?: number
}

/** Subscriptions one connection may hold (DESIGN §4 limits): the one constant of the terminal client. */
export const MAX_SUBSCRIPTIONS = 100
/** League list pages read when discovering, 50 leagues each (the browser scoreboard reads as many). */
const LEAGUE_PAGES = 4
const DISCOVER_MS = 30_000

class Fatal extends Error {}

/** Runs until aborted (0) or refused for good (1: bad key, origin, revoked key). */
export async function runTail (opts: TailOptions): Promise<number> {
  const base = opts.url.replace(/\/+$/, '')
  const token = `api_token=${encodeURIComponent(opts.key)}`
  const leagues = new Set(opts.leagues)
  const fixtures = new Set(opts.fixtures)
  const discover = leagues.size === 0 && fixtures.size === 0
  let cursor = opts.since
  let attempt = 0
  let refs = 0
  const aborted = (): boolean => opts.signal?.aborted === true

  async function getJson (path: string): Promise<any> {
    const res = await fetch(`${base}${path}${path.includes('?') ? '&' : '?'}${token}`)
    if (res.status === 401) throw new Fatal('the gateway refused the key (401)')
    return res.ok ? await res.json() : undefined
  }

  /** Adds leagues with a live fixture (and, the first time, every league of the key); returns the new ones. */
  async function learn (all: boolean): Promise<number[]> {
    const found: number[] = []
    const live = await getJson('/v1/fixtures/live') as { data?: LiveFixture[] } | undefined
    for (const f of live?.data ?? []) found.push(f.league_id)
    for (let page = 1; page <= (all ? LEAGUE_PAGES : 0); page++) {
      const list = await getJson(`/v3/football/leagues?select=name&per_page=50&page=${page}`).catch(() => undefined) as
        { data?: Array<{ id: number }>, pagination?: { has_more?: boolean } } | undefined
      for (const l of list?.data ?? []) found.push(l.id)
      if (list?.pagination?.has_more !== true) break
    }
    const fresh = [...new Set(found)].filter((id) => !leagues.has(id)).slice(0, Math.max(0, MAX_SUBSCRIPTIONS - leagues.size - fixtures.size))
    for (const id of fresh) leagues.add(id)
    return fresh
  }

  const print = (frame: ChangeRecord): void => {
    if (opts.json) opts.out(JSON.stringify({ type: 'change', ...frame }))
    else for (const line of describe(frame, { color: opts.color })) opts.out(line)
  }

  /** Why the last connection failed, for the reconnect message (ws emits `error` just before `close`). */
  let lastError = ''
  /** One connection's life. Resolves when it closes (with the close code), rejects with Fatal when refused. */
  const session = async (): Promise<number> => await new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/live?${token}`, { perMessageDeflate: false })
    let lastSeen = Date.now()
    const alive = (): void => { lastSeen = Date.now() }
    const watchdog = setInterval(() => { if (Date.now() - lastSeen > 60_000) ws.terminate() }, 5_000)
    const discovery = discover ? setInterval(() => { learnMore().catch(() => {}) }, DISCOVER_MS) : undefined
    const learnMore = async (): Promise<void> => {
      const fresh = await learn(false)
      if (fresh.length > 0 && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ op: 'subscribe', ref: `more-${++refs}`, leagues: fresh, snapshot: !opts.json }))
    }
    const onAbort = (): void => { ws.close(1000) }
    opts.signal?.addEventListener('abort', onAbort)
    const done = (): void => {
      clearInterval(watchdog)
      clearInterval(discovery)
      opts.signal?.removeEventListener('abort', onAbort)
    }

    ws.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0
      res.resume()
      done()
      if (status === 401 || status === 403) reject(new Fatal(`the gateway refused the connection (${status})`))
      else resolve(status)
      ws.terminate()
    })
    ws.on('error', (err) => { lastError = err.message })
    ws.on('ping', alive)
    ws.on('close', (code, reason) => {
      done()
      if (code === 4001) reject(new Fatal(`the key was revoked (${reason.toString() || 4001})`))
      else resolve(code)
    })
    ws.on('message', (data) => {
      alive()
      let frame: any
      try { frame = JSON.parse(data.toString()) } catch { return }
      switch (frame.type) {
        case 'hello':
          // JSON mode prints no snapshot: it starts from the server's head, gap-free from there on.
          if (cursor === undefined && opts.json) cursor = frame.cursor
          ws.send(JSON.stringify({
            op: 'subscribe',
            ref: `sub-${++refs}`,
            leagues: [...leagues],
            fixtures: [...fixtures],
            ...(cursor === undefined ? { snapshot: !opts.json } : { since: cursor, snapshot: false })
          }))
          break
        case 'subscribed':
          if (attempt > 0) opts.err(`touchline tail: reconnected${cursor === undefined ? '' : `, resuming after ${cursor}`}`)
          attempt = 0
          break
        case 'snapshot':
          // A full snapshot (first subscribe, or a resume that could not be replayed) is the new resume point.
          if (String(frame.ref).startsWith('sub-')) cursor = frame.cursor
          if (!opts.json) for (const f of frame.fixtures as LiveFixture[]) opts.out(fixtureLine(f))
          break
        case 'replay':
          if (frame.recovered === false) opts.err('touchline tail: the resume point has expired; changes may have been missed, showing the current state')
          break
        case 'change':
          cursor = frame.cursor
          print(frame)
          break
        case 'error':
          opts.err(`touchline tail: ${clean(String(frame.code))}: ${clean(String(frame.message))}`)
          break
      }
    })
  })

  try {
    while (!aborted()) {
      if (discover && leagues.size === 0) {
        let reached = true
        await learn(true).catch((err: unknown) => { if (err instanceof Fatal) throw err; reached = false })
        // Unreachable: the connection's own line says so (cannot reach <url>), not "no league".
        if (leagues.size === 0 && reached) opts.err('touchline tail: no league to follow yet; checking every 30 s')
      }
      const code = await session()
      if (aborted()) break
      attempt++
      const backoff = Math.min(opts.maxBackoffMs ?? 15_000, 500 * 2 ** Math.min(attempt - 1, 5))
      const delay = Math.round((code === 1001 ? 500 : backoff) * (0.5 + Math.random() / 2))
      opts.err(`touchline tail: ${connectionLostLine({ url: base, code, error: lastError, delayMs: delay })}`)
      lastError = ''
      await sleep(delay, opts.signal)
    }
    return 0
  } catch (err) {
    if (!(err instanceof Fatal)) throw err
    opts.err(`touchline tail: ${err.message}`)
    return 1
  }
}

async function sleep (ms: number, signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms)
    function done (): void {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done)
  })
}
