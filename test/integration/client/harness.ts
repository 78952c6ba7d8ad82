/**
 * The client tests' rig: a gateway as a real child process (gateway-main.ts: no poller) on a fixed port, so
 * it can be killed with SIGKILL mid-match and started again at the same address; its store in the shared
 * Redis under a fresh prefix, which the test writes too (scripted matches), so the log survives the kill;
 * and optionally a keys file the test rewrites (SIGHUP reloads it).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { expect } from 'vitest'
import type { LiveStore } from '../../../src/store/types.ts'
import type { ClientStatus } from '@touchline/client'
import { matches, type Match, type Matches } from '../../helpers/matches.ts'
import { redisStores } from '../store/helpers.ts'
import { waitFor } from '../../helpers/wait.ts'
import { freePort } from '../../helpers/redis-server.ts'

const MAIN = fileURLToPath(new URL('./gateway-main.ts', import.meta.url))

/** An entry of the keys file (src/client-keys.ts). */
export interface KeyEntry { key: string, name: string, leagues?: number[] | '*', max_connections?: number, allowed_origins?: string[] | '*' }

export interface GatewayProcess {
  child: ChildProcess
  url: string
  /** SIGKILL: no close frames, no cleanup; resolves once the process is gone. */
  kill: () => Promise<void>
  /** SIGHUP (reload the keys file); resolves when the gateway says it reloaded. */
  reloadKeys: () => Promise<void>
  output: () => string
}

/** Waits for `pattern` in the gateway's output; fails at once when the gateway exits first. */
async function waitForOutput (child: ChildProcess, out: () => string, pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
  return await waitFor(() => `${pattern} in gateway output:\n${out()}`, () => {
    const found = out().match(pattern)
    if (found === null && child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}) before ${pattern}:\n${out()}`)
    return found
  }, ms, 50)
}

export interface ClientRig {
  store: LiveStore
  matches: Matches
  /** The gateway's base URL (the same across restarts). */
  url: string
  /** Starts the gateway (again). */
  start: () => Promise<GatewayProcess>
  /** Rewrites the keys file (apply with the running gateway's reloadKeys). */
  writeKeys: (keys: KeyEntry[]) => void
  close: () => Promise<void>
}

export async function clientRig (redisUrl: string, keys?: KeyEntry[]): Promise<ClientRig> {
  const env = redisStores(redisUrl)
  const store = env.open()
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'tl-client-'))
  const keysFile = join(dir, 'keys.json')
  const writeKeys = (list: KeyEntry[]): void => writeFileSync(keysFile, JSON.stringify(list))
  if (keys !== undefined) writeKeys(keys)
  const running: ChildProcess[] = []
  const start = async (): Promise<GatewayProcess> => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: {
        // The test run's own TOUCHLINE_* variables (TOUCHLINE_DOCS_SCREENSHOTS...) are no settings of this gateway.
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TOUCHLINE_'))),
        NODE_ENV: 'test',
        TOUCHLINE_HOST: '127.0.0.1',
        TOUCHLINE_PORT: String(port),
        TOUCHLINE_PROVIDER_PORT: '0',
        TOUCHLINE_REDIS_URL: redisUrl,
        TOUCHLINE_REDIS_PREFIX: env.prefix,
        TOUCHLINE_LOG_LEVEL: 'warn',
        ...(keys !== undefined ? { TOUCHLINE_KEYS_FILE: keysFile } : {})
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    running.push(child)
    let out = ''
    child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
    child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    const [, url] = await waitForOutput(child, () => out, /touchline gateway (http:\/\/\S+)/, 30_000) as RegExpMatchArray
    let reloads = 0
    return {
      child,
      url: url as string,
      output: () => out,
      kill: async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
        await exited
      },
      reloadKeys: async () => {
        const n = ++reloads
        child.kill('SIGHUP')
        await waitForOutput(child, () => out.split('\n').filter((l) => l.startsWith('keys reload')).slice(n - 1).join('\n'), /keys reloaded/, 10_000)
      }
    }
  }
  return {
    store,
    matches: matches(store),
    url: `http://127.0.0.1:${port}`,
    start,
    writeKeys,
    close: async () => {
      for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await env.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** The store's records after `cursor`, in log order (the truth a client's change events must equal). */
export async function recordsSince (store: LiveStore, cursor: string): Promise<string[]> {
  const out: string[] = []
  let at = cursor
  for (;;) {
    const page = await store.readSince(at, { limit: 500 })
    if (!page.recovered) throw new Error(`log lost after ${at}`)
    out.push(...page.records.map((r) => r.cursor))
    at = page.cursor
    if (!page.more) return out
  }
}

/** What the scenario reads of a client, wherever it runs (this process or a page). */
export interface ClientProbe {
  state: () => Promise<string>
  changes: () => Promise<number>
  cursor: () => Promise<string | undefined>
}

type Played = Promise<{ gw: GatewayProcess, downAt: number }>

/**
 * The match both client tests play: two changes live, the gateway killed (SIGKILL), four changes while it
 * is down (a goal, a goal, that goal cancelled by VAR, half time) and 3.5 s of failed attempts, the gateway
 * started again, two more changes live. Resolves once the client has the store's last change, with the new
 * gateway and when it went down.
 */
export async function killMidMatch (rig: ClientRig, gw: GatewayProcess, [celtic, hearts]: [Match, Match], probe: ClientProbe): Played {
  const before = await probe.changes()
  await celtic.goal('home', 'K. Furuhashi', 12)
  await hearts.card('away', 'J. Doidge', 31)
  await waitFor('two live changes', async () => await probe.changes() === before + 2, 5000)
  await gw.kill()
  await waitFor('the client to notice', async () => await probe.state() !== 'live', 5000)
  const downAt = Date.now()
  // While the gateway is down the match goes on: the store (Redis) logs it.
  await celtic.goal('away', 'K. Vassell', 20)
  await hearts.goal('home', 'L. Shankland', 33)
  await celtic.cancelGoal('K. Vassell')
  await celtic.state('HT')
  await sleep(3500)
  const restarted = await rig.start()
  await waitFor('live again', async () => await probe.state() === 'live', 10_000)
  await hearts.goal('home', 'L. Shankland', 40)
  await celtic.state('INPLAY_2ND_HALF')
  const head = await rig.store.head()
  await waitFor(`the client at ${head}`, async () => await probe.cursor() === head, 10_000)
  return { gw: restarted, downAt }
}

/**
 * Which of the match's last eight changes came replayed: the two before the kill came live, the four
 * logged while the gateway was down came in the replay. The two after the restart may come either way (the
 * client is live once subscribed, and a change logged before the server read its replay is part of it).
 */
export function expectReplayedWhileDown (replayed: boolean[]): void {
  const last = replayed.slice(-8)
  expect(last.slice(0, 2)).toEqual([false, false])
  expect(last.slice(2, 6)).toEqual([true, true, true, true])
}

/**
 * The pauses between attempts while the gateway was down: several attempts, every announced pause within
 * the cap and not all the same (jitter), and the observed gaps between the attempts near the cap (plus the
 * HTTP diagnosis of a socket that would not open).
 */
export function expectJitteredPauses (statuses: ClientStatus[], opened: number[], downAt: number, capMs: number): void {
  const attempts = opened.filter((t) => t >= downAt)
  expect(attempts.length).toBeGreaterThanOrEqual(3)
  const pauses = statuses.flatMap((s) => s.retryInMs === undefined ? [] : [s.retryInMs])
  expect(pauses.length).toBeGreaterThanOrEqual(3)
  expect(Math.max(...pauses)).toBeLessThanOrEqual(capMs)
  expect(new Set(pauses).size).toBeGreaterThan(1)
  // Generous: the diagnosis and a loaded machine add to the pause; waiting out several caps would not fit.
  const gaps = attempts.slice(1).map((t, i) => t - (attempts[i] as number))
  expect(Math.max(...gaps)).toBeLessThan(capMs + 2000)
}
