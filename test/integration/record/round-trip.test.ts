/**
 * Record and replay a match day: a gateway in front of the embedded provider records what its poller
 * receives (TOUCHLINE_RECORD_DIR); providers started on that recording, in-process and through the real
 * `touchline provider --replay f1 f2` command, play it back; gateways in front of them bring WebSocket
 * subscribers to the same final states, scores and events the recording gateway's store had.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { DEMO_KEY } from '../../../src/client-keys.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import { readReplayFiles } from '../../../packages/provider/src/replays.ts'
import type { RecordedLine } from '../../../src/record/recorder.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const TOKEN = 'demo-enterprise'
/** Match seconds per real second while recording: a match lasts about 11 s. */
const RECORD_SPEED = 600
/** The replays play the recording 4 times faster than it was recorded. */
const REPLAY_SPEED = 4
const NS = 1
const FT = 5

// Today alone of the days (a read of the week is 30 pages at 600x, recorded too): the live feed is what is replayed.
const GATEWAY_ENV = { TOUCHLINE_POLL_FLOOR_MS: '100', TOUCHLINE_RECONCILE_INTERVAL_MS: '2000', TOUCHLINE_DAYS_BACK: '0', TOUCHLINE_DAYS_AHEAD: '0' }

async function gatewayBefore (upstreamUrl: string): Promise<Gateway> {
  return await startTestGateway({ env: { ...GATEWAY_ENV, TOUCHLINE_UPSTREAM_URL: upstreamUrl, TOUCHLINE_UPSTREAM_TOKEN: TOKEN } })
}

/** Every recorded line of the directory, in file order. */
function recordedLines (dir: string): RecordedLine[] {
  return readdirSync(dir).sort().flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as RecordedLine))
}

/**
 * Each fixture's recorded states in the live feed (livescores), in order. The reads of the days
 * (fixtures/between), of fixtures/latest and of the line-ups to come (fixtures/multi) are recorded too, a
 * week of fixtures: a subscriber follows those of the live feed.
 */
function statesByFixture (lines: readonly RecordedLine[]): Map<number, number[]> {
  const states = new Map<number, number[]>()
  for (const line of lines) {
    if (!line.path.startsWith('/football/livescores')) continue
    const data = (line.body as { data?: unknown }).data
    for (const f of (Array.isArray(data) ? data : [data]) as Array<{ id: number, state_id: number }>) {
      if (typeof f?.id !== 'number') continue
      states.set(f.id, [...(states.get(f.id) ?? []), f.state_id])
    }
  }
  return states
}

/** Fixtures the recording shows from before kick-off to full time. */
const wholeMatches = (lines: readonly RecordedLine[]): number[] =>
  [...statesByFixture(lines)].filter(([, s]) => s[0] === NS && s.includes(FT)).map(([id]) => id)

/** What a subscriber ends up with: the last fixture of every snapshot and change frame, by id. */
class Subscriber {
  readonly fixtures = new Map<number, LiveFixture>()
  private constructor (readonly ws: WsTestClient) {
    ws.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame
      if (frame.type === 'snapshot') for (const f of frame.fixtures as LiveFixture[]) this.fixtures.set(f.id, f)
      if (frame.type === 'change' && frame.fixture !== undefined) this.fixtures.set(frame.fixture_id as number, frame.fixture as LiveFixture)
    })
  }

  static async of (gw: Gateway, fixtures: readonly number[]): Promise<Subscriber> {
    const ws = await WsTestClient.connect(`${gw.url.replace('http', 'ws')}/v1/live?api_token=${DEMO_KEY}`)
    const sub = new Subscriber(ws)
    const answer = await ws.request({ op: 'subscribe', ref: 'day', fixtures })
    expect(answer, JSON.stringify({ ...answer, fixtures: fixtures.length })).toMatchObject({ type: 'subscribed' })
    return sub
  }
}

/** The parts of a fixture a replay must reproduce. */
const outcome = (f: LiveFixture | undefined) => f === undefined
  ? undefined
  : { state: f.state.code, result_info: f.result_info, score: [f.home.score, f.away.score], scores: f.scores, events: f.events }

describe('record a match day through the gateway, replay it, get the same match day', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-round-trip-'))
  const recordDir = join(dir, 'recorded')
  // TOUCHLINE_RECORD_DIR must exist (the settings refuse one that does not).
  mkdirSync(recordDir)
  const closers: Array<() => Promise<unknown>> = []
  let recorded: Map<number, LiveFixture>
  let whole: number[]
  let lines: RecordedLine[]

  beforeAll(async () => {
    const gw = await startTestGateway({
      env: { ...GATEWAY_ENV, TOUCHLINE_SIM_SPEED: String(RECORD_SPEED), TOUCHLINE_RECORD_DIR: recordDir },
      overrides: { provider: { liveTarget: 4, hourlyLimits: { Enterprise: 100_000 } } }
    })
    try {
      // A few matches from kick-off to full time, and a little more.
      await waitFor('three whole matches recorded', () => { try { return wholeMatches(recordedLines(recordDir)).length >= 3 } catch { return false } }, 120_000)
      await sleep(1000)
    } finally {
      await gw.close()
    }
    lines = recordedLines(recordDir)
    whole = wholeMatches(lines)
    recorded = new Map((await gw.store.getFixtures([...statesByFixture(lines).keys()])).map((f) => [f.id, f]))
  }, 180_000)

  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  })

  it('records responses without host or token, one hourly NDJSON file', () => {
    const text = readdirSync(recordDir).map((f) => readFileSync(join(recordDir, f), 'utf8')).join('')
    expect(readdirSync(recordDir).every((f) => /^touchline-\d{4}-\d\d-\d\dT\d\d\.ndjson$/.test(f))).toBe(true)
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain('127.0.0.1')
    expect(lines.some((l) => l.path.startsWith('/football/livescores/latest?include='))).toBe(true)
    expect(lines.some((l) => l.path.startsWith('/football/livescores?include='))).toBe(true)
    expect(whole.length).toBeGreaterThanOrEqual(3)
  })

  it('replayed in-process and through `touchline provider --replay f1 f2`, subscribers end with the recorded states, scores and events', async () => {
    // In-process: the recording's hourly files by wildcard.
    const provider: RunningProvider = await startProvider({ port: 0, simSpeed: REPLAY_SPEED, replay: readReplayFiles([join(recordDir, '*.ndjson')]), hourlyLimits: { Enterprise: 100_000 } })
    closers.push(async () => { await provider.close() })
    // The real command, on the recording cut in two files (as hourly rotation would), after one flag.
    const all = lines.map((l) => JSON.stringify(l) + '\n')
    const parts = [join(dir, 'part-1.ndjson'), join(dir, 'part-2.ndjson')]
    writeFileSync(parts[0] as string, all.slice(0, all.length >> 1).join(''))
    writeFileSync(parts[1] as string, all.slice(all.length >> 1).join(''))
    const child: ChildProcess = spawn(process.execPath, [BIN, 'provider', '--port', '0', '--speed', String(REPLAY_SPEED), '--replay', ...parts], {
      env: { ...process.env, NODE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe']
    })
    closers.push(async () => { child.kill('SIGTERM') })
    let out = ''
    child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
    child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
    await waitFor('the provider command to start', () => /embedded\s+http:\/\/\S+\/v3/.test(out) || child.exitCode !== null, 20_000)
    const childUrl = /embedded\s+(http:\/\/\S+\/v3)/.exec(out)?.[1]
    expect(childUrl, out).toBeDefined()

    const subscribers: Subscriber[] = []
    closers.push(async () => { for (const s of subscribers) s.ws.close() })
    for (const upstream of [provider.baseUrl, childUrl as string]) {
      const gw = await gatewayBefore(upstream)
      closers.push(async () => { await gw.close() })
      subscribers.push(await Subscriber.of(gw, [...recorded.keys()]))
    }
    const expected = [...recorded.values()].map((f) => [f.id, outcome(f)] as const)
    const done = (s: Subscriber): boolean => expected.every(([id, o]) => JSON.stringify(outcome(s.fixtures.get(id))) === JSON.stringify(o))
    // A ceiling, not a deadline: the replays end on their own (CI's loaded run once needed more than 40 s).
    await waitFor('the replays to end', () => subscribers.every(done), 100_000).catch(() => {})
    for (const s of subscribers) {
      for (const [id, o] of expected) expect(outcome(s.fixtures.get(id)), `fixture ${id}`).toEqual(o)
      for (const id of whole) expect(s.fixtures.get(id)?.state.code).toBe('FT')
    }
  }, 150_000)
})
