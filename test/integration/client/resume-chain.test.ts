/**
 * Resume in a new process, as an app does it: the client installed from its tarball outside the repository
 * (test/fixtures/client-app/app.mjs, mode `relay`) follows every league while scripted matches change all the
 * time; it saves its cursor and exits, and a new process starts at once with `since` that cursor, eight
 * times in a row. What each process emitted is compared with `/v1/changes` from its cursor: every change
 * once, in order, with every goal, and the current fixtures held when connect() resolves. Two matches end
 * and two begin between runs, so a removal and an addition fall after a saved cursor.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { openTestRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { startUiGateway, type UiGateway } from '../browser/harness.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const APP = fileURLToPath(new URL('../../fixtures/client-app/app.mjs', import.meta.url))
const RUNS = 8

type Line = Record<string, any>

/** One `relay` process: its output lines as they come, and `stop` (prints the cursor to save, exits). */
interface Relay { lines: Line[], child: ChildProcess, stop: () => Promise<string> }

function relay (dir: string, url: string, format: string, since: string): Relay {
  const child = spawn(process.execPath, ['app.mjs', 'relay', url, 'demo', format, since], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
  const lines: Line[] = []
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString()
    for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
      lines.push(JSON.parse(out.slice(0, i)) as Line)
      out = out.slice(i + 1)
    }
  })
  child.stderr?.on('data', (d: Buffer) => { err += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const stop = async (): Promise<string> => {
    child.stdin?.write('stop\n')
    const code = await exited
    if (code !== 0) throw new Error(`relay exited ${code}: ${err}`)
    const stopped = lines.find((l) => l.stopped !== undefined)
    return stopped?.stopped.cursor as string
  }
  child.on('exit', (code) => { if (code !== 0 && code !== null) lines.push({ crashed: err }) })
  return { lines, child, stop }
}

/** Waits for the relay to be connected and to have emitted `n` live changes after it. */
async function settle (r: Relay, n: number): Promise<void> {
  const crashed = (): void => { const c = r.lines.find((l) => l.crashed !== undefined); if (c !== undefined) throw new Error(c.crashed) }
  await waitFor('connect() resolved', () => { crashed(); return r.lines.some((l) => l.connected !== undefined) }, 20_000)
  await waitFor(`${n} live changes`, () => { crashed(); return r.lines.filter((l) => l.change?.replayed === false).length >= n }, 20_000)
}

/** Matches changing all the time, with structural changes (one ends, another begins) run between two writes. */
function busyBoard (gw: UiGateway, first: Match[]) {
  const live = [...first]
  const minutes = new Map(first.map((m) => [m.id, m.fixture.minute ?? 1]))
  const queued: Array<() => Promise<void>> = []
  const state = { running: true }
  let n = 0
  let next = 9300
  const loop = (async () => {
    while (state.running) {
      const op = queued.shift()
      if (op !== undefined) { await op(); continue }
      const m = live[n++ % live.length] as Match
      const roll = n % 7
      // A card at the minute the fixture shows: the helper records no clock change with it.
      if (roll === 3) await m.card('away', `Player ${n}`, minutes.get(m.id) ?? 1)
      else {
        const minute = (minutes.get(m.id) ?? 1) + 1
        minutes.set(m.id, minute)
        if (roll === 0) await m.goal(n % 2 === 0 ? 'home' : 'away', `Scorer ${n}`, minute)
        else await m.clock(minute)
      }
      // A busy board, not a flood: about 40 changes a second.
      await sleep(25)
    }
  })()
  return {
    /** The oldest match ends (full time, out of the live set) and a new one begins; resolves once both are stored. */
    async turnover (): Promise<void> {
      await new Promise<void>((resolve, reject) => {
        queued.push(async () => {
          try {
            const ended = live.shift() as Match
            await ended.state('FT')
            const id = next++
            const started = await gw.matches.start(id, 501, `Home ${id}`, `Away ${id}`, 10)
            live.push(started)
            minutes.set(id, 10)
            resolve()
          } catch (err) { reject(err) }
        })
      })
    },
    async stop (): Promise<void> { state.running = false; await loop }
  }
}

/** Every change frame after `since` up to `until`, as /v1/changes gives them (full format). */
async function changesBetween (url: string, since: string, until: string): Promise<Line[]> {
  const [, last] = until.split(':')
  const frames: Line[] = []
  let cursor = since
  for (;;) {
    const res = await fetch(`${url}/v1/changes?api_token=demo&since=${encodeURIComponent(cursor)}&format=full&limit=1000`)
    const page = await res.json() as { data: Line[], cursor: string, more: boolean, recovered: boolean }
    expect(page.recovered).toBe(true)
    for (const f of page.data) if (Number(String(f.cursor).split(':')[1]) <= Number(last)) frames.push(f)
    cursor = page.cursor
    if (!page.more || Number(cursor.split(':')[1]) >= Number(last)) return frames
  }
}

const goalsOf = (frames: Line[]): Line[] => frames.flatMap((f) => (f.changes as Line[])
  .filter((c) => c.kind === 'score_changed' && c.score_type === undefined)
  .flatMap((c) => (c.goals as Line[] ?? []).map((g) => ({ fixture: f.fixture_id, score: { home: c.home, away: c.away }, scorer: g.player?.name ?? null }))))

let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'touchline-relay-'))
  // The client and the core package it is built on, as both would be published.
  const { stdout } = await run('npm', ['pack', '-w', '@touchline/core', '-w', '@touchline/client', '--pack-destination', dir, '--json'], { cwd: ROOT })
  const tarballs = (JSON.parse(stdout) as Array<{ filename: string }>).map((t) => `./${t.filename}`)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'a-relay', private: true, type: 'module' }))
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: dir })
  copyFileSync(APP, join(dir, 'app.mjs'))
}, 120_000)
afterAll(() => { if (dir !== undefined) rmSync(dir, { recursive: true, force: true }) })

describe.each([
  ['delta', 'memory'], ['full', 'memory'], ['delta', 'redis'], ['full', 'redis']
])('a new process resuming with `since` (format %s, %s store), eight times in a row with no pause', (format, store) => {
  let gw: UiGateway
  const redis = store === 'redis' ? openTestRedis() : undefined

  beforeAll(async () => {
    gw = await startUiGateway(undefined, redis === undefined ? {} : { env: { TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix } })
  })
  afterAll(async () => {
    await gw?.close()
    await redis?.close()
  })

  it('emits every change after the saved cursor exactly once, every goal, and holds the live fixtures when connect() resolves', async () => {
    const first = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => await gw.matches.start(9200 + i, i % 2 === 0 ? 501 : 271, `Home ${i}`, `Away ${i}`, 10 + i)))
    const board = busyBoard(gw, first)
    const runs: Array<{ since: string, until: string, lines: Line[], live: number[] }> = []
    try {
      const opening = relay(dir, gw.url, format, '-')
      await settle(opening, 3)
      let cursor = await opening.stop()
      for (let i = 1; i <= RUNS; i++) {
        // Two runs start right after a match ended and another began: both fall after the saved cursor.
        if (i === 3 || i === 6) await board.turnover()
        const res = await fetch(`${gw.url}/v1/fixtures/live?api_token=demo`)
        const live = ((await res.json()) as { data: Array<{ id: number }> }).data.map((f) => f.id).sort((a, b) => a - b)
        const r = relay(dir, gw.url, format, cursor)
        await settle(r, 3)
        const until = await r.stop()
        runs.push({ since: cursor, until, lines: r.lines, live })
        cursor = until
      }
    } finally {
      await board.stop()
    }

    for (const [i, r] of runs.entries()) {
      const expected = await changesBetween(gw.url, r.since, r.until)
      const emitted = r.lines.filter((l) => l.change !== undefined).map((l) => l.change as Line)
      const label = `run ${i + 1} from ${r.since}`
      // Nothing missing, nothing twice, in order: the same frames as the log holds after the cursor.
      expect(emitted.map((c) => [c.cursor, c.kinds]), label).toEqual(expected.map((f) => [f.cursor, (f.changes as Line[]).map((c) => c.kind)]))
      // The changes sent again from history come first, marked; the live ones after them.
      const replayed = emitted.filter((c) => c.replayed === true).length
      expect(emitted.slice(0, replayed).every((c) => c.replayed === true), label).toBe(true)
      // Runs 3 and 6 start after a turnover made between the saved cursor and their start: replayed, surely.
      if (i === 2 || i === 5) expect(replayed, `${label}: the turnover before it, replayed`).toBeGreaterThan(0)
      // Every goal of those changes, with its scorer.
      expect(r.lines.filter((l) => l.goal !== undefined).map((l) => l.goal), label).toEqual(goalsOf(expected))
      // The live fixtures are held when connect() resolves (a match that just ended may linger until its removal is applied).
      const connected = r.lines.find((l) => l.connected !== undefined)?.connected as Line
      expect(connected.state, label).toBe('live')
      const removed = new Set(expected.filter((f) => (f.changes as Line[]).some((c) => c.kind === 'fixture_removed')).map((f) => f.fixture_id as number))
      expect((connected.held as number[]).filter((id) => !removed.has(id)), label).toEqual(r.live.filter((id) => !removed.has(id)))
    }
    // The turnovers did reach the resumed processes: a removal and an addition after a saved cursor.
    const kinds = runs.flatMap((r) => r.lines.flatMap((l) => l.change?.kinds ?? []))
    expect(kinds).toContain('fixture_removed')
    expect(kinds).toContain('fixture_added')
    expect(kinds).toContain('score_changed')
  }, 180_000)
})
