/**
 * `touchline serve` as a real process against settings that look right and are not (docs/settings.md,
 * "Checked at start"): each stops the start with exit code 2 and one line naming the variable, no stack,
 * never the upstream token. An upstream that refuses the token (401, 403: the line quotes what it said), a
 * base URL without `/v3` or whose paths do not exist (404), a Redis key prefix with braces, a Sentinel that
 * knows no such master or does not answer (within 10 s, where it used to hang), a recording directory that
 * does not exist. And the one that must not stop it: an upstream that does not answer at all is an outage,
 * one warning naming TOUCHLINE_UPSTREAM_URL and its host, then the polls go on failing quietly (one line
 * each with its code, no stack). Under `--workers` the upstream is asked once, not once per worker.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import { freePort } from '../../helpers/redis-server.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const TOKEN = 'tok-3b9f0c2e-never-shown'
/** A start that must end: past this the process is killed and the test fails (it would have hung). */
const HANG_MS = 60_000

interface Serve {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  /** Resolves to the first match of `pattern` in the output; fails at once if the process exits first. */
  waitForOutput: (pattern: RegExp, what: string) => Promise<RegExpMatchArray>
}

function serve (env: Record<string, string>, args: string[] = []): Serve {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, NODE_ENV: 'test', TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr.on('data', (d: Buffer) => { out += d.toString() })
  const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => { clearTimeout(killer); resolve(code) }))
  onTestFinished(() => { clearTimeout(killer); if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  return {
    child,
    output: () => out,
    exited,
    waitForOutput: async (pattern, what) => await waitFor(() => `${what} in:\n${out}`, () => {
      const found = out.match(pattern)
      if (found === null && child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${what}:\n${out}`)
      return found ?? undefined
    }, HANG_MS, 50)
  }
}

/** The process's end: its exit code, its output, how long it ran. */
async function outcome (env: Record<string, string>, args: string[] = []): Promise<{ code: number | null, output: string, ms: number }> {
  const started = performance.now()
  const s = serve(env, args)
  const code = await s.exited
  return { code, output: s.output(), ms: performance.now() - started }
}

/** Whether the output shows a stack trace (a line of one, or a logged error's `stack` field). */
const hasStack = (output: string): boolean => /^\s+at /m.test(output) || output.includes('"stack"')

/** What the operator reads of a refused start: the exit code, one line naming the variable, no stack, no token. */
function refusal (r: { code: number | null, output: string }, variable: string): { code: number | null, lines: number, named: boolean, stack: boolean, token: boolean, listened: boolean } {
  const lines = r.output.trim().split('\n')
  return {
    code: r.code,
    lines: lines.length,
    named: lines[0]?.startsWith(`touchline: ${variable}: `) === true,
    stack: hasStack(r.output),
    token: r.output.includes(TOKEN),
    listened: r.output.includes('touchline gateway')
  }
}
const REFUSED = { code: 2, lines: 1, named: true, stack: false, token: false, listened: false }

/** A local HTTP server answering every request with `status` and `body` (JSON), as an upstream would. */
async function upstreamAnswering (status: number, body: unknown): Promise<{ url: string, paths: string[] }> {
  const paths: string[] = []
  const server: Server = createServer((req, res) => {
    paths.push(new URL(req.url ?? '/', 'http://x').pathname)
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { await new Promise((resolve) => server.close(resolve)) })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`, paths }
}

/** A sentinel monitoring nothing (Debian's redis-server in sentinel mode): it knows no master by any name. */
async function loneSentinel (dir: string): Promise<number> {
  const port = await freePort()
  const conf = join(dir, `sentinel-${port}.conf`)
  writeFileSync(conf, `port ${port}\nbind 127.0.0.1\ndir ${dir}\n`)
  const proc = spawn('redis-server', [conf, '--sentinel'], { stdio: ['ignore', 'pipe', 'ignore'] })
  onTestFinished(() => { proc.kill('SIGKILL') })
  let out = ''
  proc.stdout.on('data', (d: Buffer) => { out += d.toString() })
  await waitFor(() => `the sentinel on ${port} ready:\n${out}`, () => {
    if (proc.exitCode !== null) throw new Error(`the sentinel exited (${proc.exitCode}):\n${out}`)
    return /Sentinel ID is|Ready to accept connections/.test(out)
  }, 10_000, 25)
  return port
}

const redis = useRedis()

describe('the upstream, asked once at start', () => {
  it('a token it refuses (401): exit 2 naming TOUCHLINE_UPSTREAM_TOKEN and what it said, never the token', async () => {
    const up = await upstreamAnswering(401, { message: 'Unauthenticated.' })
    const r = await outcome({ TOUCHLINE_UPSTREAM_URL: up.url, TOUCHLINE_UPSTREAM_TOKEN: TOKEN })
    expect(refusal(r, 'TOUCHLINE_UPSTREAM_TOKEN'), r.output).toEqual(REFUSED)
    expect(r.output).toContain('401 "Unauthenticated."')
    // One call: the probe, not a poll.
    expect(up.paths).toEqual(['/v3/my/usage'])
  }, HANG_MS)

  it('a token without access (403): exit 2 naming TOUCHLINE_UPSTREAM_TOKEN', async () => {
    const up = await upstreamAnswering(403, { error: 'Forbidden', message: `Your plan does not include this (token ${TOKEN}).` })
    const r = await outcome({ TOUCHLINE_UPSTREAM_URL: up.url, TOUCHLINE_UPSTREAM_TOKEN: TOKEN })
    expect(refusal(r, 'TOUCHLINE_UPSTREAM_TOKEN'), r.output).toEqual(REFUSED)
    // The upstream echoed the token: it is cut out of what is quoted.
    expect(r.output).toContain('403 "Your plan does not include this (token [redacted]).')
  }, HANG_MS)

  it('the embedded provider with a wrong token answers 401 like the real API: exit 2', async () => {
    const r = await outcome({ TOUCHLINE_UPSTREAM_TOKEN: TOKEN })
    expect(refusal(r, 'TOUCHLINE_UPSTREAM_TOKEN'), r.output).toEqual(REFUSED)
    expect(r.output).toMatch(/refuses the token: 401 "/)
  }, HANG_MS)

  it('a URL without /v3: exit 2 naming TOUCHLINE_UPSTREAM_URL, before any call', async () => {
    const up = await upstreamAnswering(404, { message: 'Not found.' })
    const r = await outcome({ TOUCHLINE_UPSTREAM_URL: up.url.replace(/\/v3$/, ''), TOUCHLINE_UPSTREAM_TOKEN: TOKEN })
    expect({ ...refusal(r, 'invalid settings'), named: r.output.includes('TOUCHLINE_UPSTREAM_URL: must include the API\'s version, /v3') }, r.output)
      .toEqual({ ...REFUSED, lines: 2 })
    expect(up.paths).toEqual([])
  }, HANG_MS)

  it('a URL whose paths do not exist (404): exit 2 naming TOUCHLINE_UPSTREAM_URL and what it said', async () => {
    const up = await upstreamAnswering(404, { message: 'Not found.' })
    const r = await outcome({ TOUCHLINE_UPSTREAM_URL: up.url, TOUCHLINE_UPSTREAM_TOKEN: TOKEN })
    expect(refusal(r, 'TOUCHLINE_UPSTREAM_URL'), r.output).toEqual(REFUSED)
    expect(r.output).toContain(`${up.url} has no /my/usage: 404 "Not found."`)
  }, HANG_MS)

  it('an upstream that does not answer: it starts, one warning naming TOUCHLINE_UPSTREAM_URL and the host, no stack over several polls', async () => {
    const port = await freePort()
    const s = serve({ TOUCHLINE_UPSTREAM_URL: `http://127.0.0.1:${port}/v3`, TOUCHLINE_UPSTREAM_TOKEN: TOKEN, TOUCHLINE_POLL_FLOOR_MS: '100' })
    await s.waitForOutput(/touchline gateway\s+http:\/\/\S+/, 'the banner')
    // Three polls failed after the start: each is one line with its code.
    await s.waitForOutput(/("msg":"poll failed"[^\n]*\n[^]*){3}/, 'three failed polls')
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
    const lines = s.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>)
    const named = lines.filter((l) => JSON.stringify(l).includes('TOUCHLINE_UPSTREAM_URL'))
    expect(named).toEqual([expect.objectContaining({ level: 40, setting: 'TOUCHLINE_UPSTREAM_URL', host: `127.0.0.1:${port}`, code: 'ECONNREFUSED' })])
    const failed = lines.filter((l) => l.msg === 'poll failed')
    expect(failed.map((l) => [l.err?.code, l.err?.cause])).toContainEqual(['TL_ERR_UPSTREAM_NETWORK', 'ECONNREFUSED'])
    expect({ stack: hasStack(s.output()), token: s.output().includes(TOKEN) }).toEqual({ stack: false, token: false })
  }, HANG_MS)
})

describe('under --workers, the upstream is asked once for all', () => {
  it('a token refused: exit 2, the one line, the upstream asked once', async () => {
    const up = await upstreamAnswering(401, { message: 'Unauthenticated.' })
    const r = await outcome({ TOUCHLINE_UPSTREAM_URL: up.url, TOUCHLINE_UPSTREAM_TOKEN: TOKEN, TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix }, ['--workers', '2'])
    const lines = r.output.split('\n').filter((l) => l.startsWith('touchline: '))
    expect({ code: r.code, lines, stack: hasStack(r.output), token: r.output.includes(TOKEN) }, r.output).toEqual({
      code: 2, lines: [expect.stringMatching(/^touchline: TOUCHLINE_UPSTREAM_TOKEN: the upstream at http:\/\/127\.0\.0\.1:\d+ refuses the token: 401 "Unauthenticated\."$/)], stack: false, token: false
    })
    expect(up.paths.filter((p) => p === '/v3/my/usage')).toHaveLength(1)
  }, 150_000)

  it('an upstream that does not answer: one warning, not one per worker', async () => {
    const port = await freePort()
    const s = serve({ TOUCHLINE_UPSTREAM_URL: `http://127.0.0.1:${port}/v3`, TOUCHLINE_UPSTREAM_TOKEN: TOKEN, TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix }, ['--workers', '2'])
    // The banner comes once every worker listens: both went through their start.
    await s.waitForOutput(/touchline gateway\s+http:\/\/\S+/, 'the banner')
    s.child.kill('SIGTERM')
    expect(await s.exited).toBe(0)
    expect(s.output().split('\n').filter((l) => l.includes('"setting":"TOUCHLINE_UPSTREAM_URL"')), s.output()).toHaveLength(1)
  }, 150_000)
})

describe('Redis settings', () => {
  it('TOUCHLINE_REDIS_PREFIX with braces, with a Redis: exit 2 naming it, no stack', async () => {
    const r = await outcome({ TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: 'x{y}:' })
    expect({ ...refusal(r, 'invalid settings'), named: r.output.includes('TOUCHLINE_REDIS_PREFIX: must not contain braces') }, r.output)
      .toEqual({ ...REFUSED, lines: 2 })
  }, HANG_MS)

  const dir = mkdtempSync(join(tmpdir(), 'touchline-start-checks-'))
  afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

  it('Sentinel that knows no such master: exit 2 within 10 s, named', async () => {
    const port = await loneSentinel(dir)
    const r = await outcome({ TOUCHLINE_REDIS_URL: `redis+sentinel://127.0.0.1:${port}/no-such-master` })
    expect(refusal(r, 'TOUCHLINE_REDIS_URL'), r.output).toEqual(REFUSED)
    expect(r.output).toContain('monitor no master named "no-such-master"')
    expect(r.ms).toBeLessThan(10_000)
  }, HANG_MS)

  it('Sentinel where no sentinel answers: exit 2 within 10 s, named', async () => {
    const ports = [await freePort(), await freePort()]
    const r = await outcome({ TOUCHLINE_REDIS_URL: `redis+sentinel://:s3cret@${ports.map((p) => `127.0.0.1:${p}`).join(',')}/mymaster` })
    expect(refusal(r, 'TOUCHLINE_REDIS_URL'), r.output).toEqual(REFUSED)
    expect(r.output).toContain(`no sentinel answers at 127.0.0.1:${ports[0]}, 127.0.0.1:${ports[1]}`)
    expect(r.output).not.toContain('s3cret')
    expect(r.ms).toBeLessThan(10_000)
  }, HANG_MS)
})

describe('TOUCHLINE_RECORD_DIR', () => {
  it('a directory that does not exist: exit 2 naming it, before anything listens', async () => {
    const missing = join(tmpdir(), `touchline-no-such-dir-${process.pid}-${Date.now()}`)
    const r = await outcome({ TOUCHLINE_RECORD_DIR: missing })
    expect({ ...refusal(r, 'invalid settings'), named: r.output.includes(`TOUCHLINE_RECORD_DIR: ${missing} does not exist`) }, r.output)
      .toEqual({ ...REFUSED, lines: 2 })
  }, HANG_MS)
})
