import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const children: ChildProcess[] = []
afterEach(() => { for (const c of children.splice(0)) c.kill('SIGTERM') })

/** Starts `touchline ...args` and collects its output. */
function run (args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, NODE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  /** Waits for `pattern` in the output; fails at once when the process exits first. */
  const inOutput = async (pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> => await waitFor(() => `${pattern} in output:\n${out}`, () => {
    const m = out.match(pattern)
    if (m === null && child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${pattern}:\n${out}`)
    return m
  }, ms, 100)
  return { child, exited, waitFor: inOutput, output: () => out }
}

describe('touchline command', () => {
  it('`touchline provider` serves the API and prints where, with its demo tokens', async () => {
    const p = run(['provider', '--port', '0', '--speed', '120'])
    const [, baseUrl] = await p.waitFor(/embedded\s+(http:\/\/\S+\/v3)/)
    for (const token of ['demo-free', 'demo-starter', 'demo-growth', 'demo-pro', 'demo-enterprise']) expect(p.output()).toContain(token)
    const inplay = async (): Promise<Array<{ id: number, state_id: number, periods: Array<{ minutes: number | null }> }>> => {
      const res = await fetch(`${baseUrl}/football/livescores/inplay?api_token=demo-enterprise&include=participants;scores;periods`)
      expect(res.status).toBe(200)
      return (await res.json() as { data: Array<{ id: number, state_id: number, periods: Array<{ minutes: number | null }> }> }).data
    }
    const before = await inplay()
    expect(before.length).toBeGreaterThan(0)
    // Live matches change within seconds of the start (at 120x a match minute lasts half a second).
    const clock = (f: { periods: Array<{ minutes: number | null }> }): number => Math.max(0, ...f.periods.map((p) => p.minutes ?? 0))
    const moved = async (): Promise<boolean> => (await inplay()).some((f) => { const b = before.find((x) => x.id === f.id); return b === undefined || clock(b) !== clock(f) || b.state_id !== f.state_id })
    await waitFor('a live match moved on', moved, 10_000, 250)
  }, 30_000)

  it('stops with exit code 2 naming an invalid setting', async () => {
    const p = run(['provider', '--port', '0'], { TOUCHLINE_SIM_SPEED: 'fast' })
    expect(await p.exited).toBe(2)
    expect(p.output()).toContain('TOUCHLINE_SIM_SPEED')
  }, 30_000)

  it('stops with exit code 2 naming an unknown TOUCHLINE_ variable', async () => {
    const p = run(['serve'], { TOUCHLINE_PROT: '9000' })
    expect(await p.exited).toBe(2)
    expect(p.output()).toContain('TOUCHLINE_PROT')
  }, 30_000)

  it('stops with exit code 2 naming TOUCHLINE_KEYS_FILE when the keys file is missing or invalid', async () => {
    const missing = run(['serve'], { TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', TOUCHLINE_KEYS_FILE: '/nonexistent/keys.json' })
    expect(await missing.exited).toBe(2)
    expect(missing.output()).toContain('TOUCHLINE_KEYS_FILE')
    expect(missing.output()).not.toMatch(/\n\s+at /)
  }, 30_000)

  it('rejects an unknown command and a bad flag with exit code 2', async () => {
    const a = run(['launch'])
    expect(await a.exited).toBe(2)
    expect(a.output()).toContain('unknown command')
    const b = run(['provider', '--error-rate', '3'])
    expect(await b.exited).toBe(2)
    expect(b.output()).toContain('--error-rate')
  }, 30_000)

  it('`touchline serve` runs the gateway in front of the embedded provider and prints the demo key', async () => {
    const s = run(['serve'], { TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', TOUCHLINE_LOG_LEVEL: 'warn' })
    const [, url] = await s.waitFor(/touchline gateway\s+(http:\/\/\S+)/)
    expect(s.output()).toMatch(/client key\s+demo/)
    // The tail command for this gateway's actual port (TOUCHLINE_PORT=0 chose it).
    expect(s.output()).toContain(`terminal                 npx touchline tail --url ${url}\n`)
    const health = await fetch(`${url}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok' })
    // The poller fills the store within a few seconds.
    let metrics = ''
    for (let i = 0; i < 50 && !/touchline_changes_total\{kind="fixture_added"\} [1-9]/.test(metrics); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      metrics = await (await fetch(`${url}/metrics`)).text()
    }
    expect(metrics).toMatch(/touchline_changes_total\{kind="fixture_added"\} [1-9]/)
    expect(metrics).toMatch(/touchline_budget_remaining\{entity="Fixture"\} \d+/)
    expect(metrics).not.toContain('demo-enterprise')
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
  }, 40_000)
})

describe('malformed URLs', () => {
  it('get the upstream\'s 400 body from the gateway and the provider, without echoing the token', async () => {
    const s = run(['serve'], { TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', TOUCHLINE_LOG_LEVEL: 'warn' })
    const [, url] = await s.waitFor(/touchline gateway\s+(http:\/\/\S+)/)
    const [, provider] = await s.waitFor(/embedded provider\s+(http:\/\/\S+\/v3)/)
    for (const base of [`${url}/v3`, provider]) {
      const res = await fetch(`${base}/football/teams/search/%E0%A4?api_token=secret-token-123`)
      const text = await res.text()
      expect(res.status).toBe(400)
      expect(JSON.parse(text)).toMatchObject({ message: expect.any(String), errors: { url: expect.any(Array) } })
      expect(text).not.toContain('secret-token-123')
    }
  }, 40_000)
})
