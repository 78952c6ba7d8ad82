/**
 * `touchline tail`: prints the live changes in the terminal, on the client library (packages/client, the
 * `@touchline/client` package), which reconnects with backoff and resumes from the last
 * cursor, so nothing is missed or printed twice. Follows the leagues, fixtures and teams asked for (or,
 * with none, every league the key may see: `leagues: "*"`), optionally only some kinds of change.
 *
 * stdout carries only the changes (one readable line each, or one JSON change frame per line with
 * `json`); connection news goes to stderr.
 */
import { TouchlineClient, type ClientStatus, type SubscribedKind, type TouchlineClientOptions } from '@touchline/client'
import type { ChangeRecord, LiveFixture } from '../wire-model/model.ts'
import { cannotReachLine, clean, describe, fixtureLine, oddsLines } from './format.ts'

export interface TailOptions {
  /** Gateway base URL, e.g. http://127.0.0.1:8080 */
  url: string
  key: string
  leagues: number[]
  fixtures: number[]
  teams?: number[]
  /** Only these kinds of change. */
  kinds?: SubscribedKind[]
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
  /** WebSocket implementation (tests count the attempts). @default the `ws` package */
  WebSocket?: TouchlineClientOptions['WebSocket']
}

/** Runs until aborted (0) or refused for good (1: bad key, revoked key, too many connections, forbidden). */
export async function runTail (opts: TailOptions): Promise<number> {
  if (opts.signal?.aborted === true) return 0
  const client = new TouchlineClient({
    url: opts.url,
    key: opts.key,
    ...(opts.since !== undefined ? { since: opts.since } : {}),
    ...(opts.WebSocket !== undefined ? { WebSocket: opts.WebSocket } : {}),
    backoff: { capMs: opts.maxBackoffMs ?? 15_000 }
  })
  const teams = opts.teams ?? []
  const everything = opts.leagues.length + opts.fixtures.length + teams.length === 0
  // Full frames: a terminal has bandwidth to spare, and kinds need them.
  client.subscribe({
    ...(everything ? { leagues: '*' as const } : { leagues: opts.leagues, fixtures: opts.fixtures, teams }),
    ...(opts.kinds !== undefined ? { kinds: opts.kinds } : {}),
    format: 'full'
  })

  let snapshots = 0
  client.on('snapshot', ({ partial, fixtures, resuming }) => {
    if (!partial && snapshots++ > 0) opts.err('touchline tail: the resume point has expired; changes may have been missed, showing the current state')
    // A resume's snapshot is the state after the changes that follow it: those changes are what --since prints.
    if (!opts.json && !resuming) for (const f of fixtures) opts.out(fixtureLine(f as LiveFixture))
  })
  client.on('change', ({ frame }) => {
    const record = frame as unknown as ChangeRecord
    if (opts.json) opts.out(JSON.stringify({ type: 'change', ...record }))
    else for (const line of describe(record, { color: opts.color })) opts.out(line)
  })
  client.on('odds', ({ odds, changes, cursor, at }) => {
    if (opts.json) opts.out(JSON.stringify({ type: 'odds', cursor, fixture_id: odds.fixture_id, league_id: odds.league_id, at, changes, odds }))
    else for (const line of oddsLines(changes, odds, client.fixtures.get(odds.fixture_id), { color: opts.color })) opts.out(line)
  })
  client.on('error', (e) => { opts.err(`touchline tail: ${clean(e.code)}: ${clean(e.message)}`) })

  return await new Promise<number>((resolve) => {
    let wasLive = false
    let lost = false
    const finish = (code: number): void => {
      opts.signal?.removeEventListener('abort', onAbort)
      client.close()
      resolve(code)
    }
    const onAbort = (): void => finish(0)
    opts.signal?.addEventListener('abort', onAbort)
    client.on('status', (s: ClientStatus) => {
      const retry = s.retryInMs === undefined ? '' : `; reconnecting in ${(s.retryInMs / 1000).toFixed(1)} s`
      if (s.state === 'live') {
        if (lost) opts.err(`touchline tail: reconnected${client.cursor === undefined ? '' : `, resuming after ${client.cursor}`}`)
        wasLive = true
        lost = false
      } else if (s.state === 'refused') {
        opts.err(`touchline tail: the gateway refused the connection (${s.reason ?? 'refused'}): ${s.message ?? ''}`)
        finish(1)
      } else if (s.reason === 'unreachable' && s.retryInMs !== undefined) {
        opts.err(`touchline tail: ${cannotReachLine({ url: opts.url, ...(s.detail !== undefined ? { detail: s.detail } : {}), delayMs: s.retryInMs })}`)
        lost = true
      } else if (s.state === 'offline') {
        opts.err(`touchline tail: ${s.message ?? 'offline'}${retry}`)
        lost = true
      } else if (s.state === 'reconnecting' && s.retryInMs !== undefined) {
        opts.err(`touchline tail: ${wasLive && !lost ? 'connection lost' : 'cannot connect'}${retry}`)
        lost = true
      }
    })
    client.connect().catch(() => {})
  })
}
