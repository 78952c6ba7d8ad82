/**
 * bench:fanout's connect phase with signed connection tokens (`--tokens`, docs/tokens.md), against the same
 * with the client key alone. Two parts:
 *
 *   verify  in-process, on the gateway's own `verifyToken` (src/tokens.ts): `--verify` (20,000) tokens of each
 *           algorithm, each with its own `sub`, verified one after another (µs of wall time, of CPU on every
 *           thread: WebCrypto runs on libuv's pool, and of the event loop's busy wall time) and 100 in flight
 *           (verifications per second); the key lookup a connection made with the key does instead
 *           (`keys.find`), for comparison. Run `--rounds` times, the three in a rotating order.
 *   storm   `--storm` (2,000) connections to `/v1/live` opened evenly over `--spread-ms` (one second) by a
 *           separate process of raw sockets, each with its own token (`Authorization: Bearer`, one `sub` per
 *           connection) or with the key (`?api_token=`): the time from the first connect to the last `hello`
 *           frame, each connection's connect-to-hello time (p50 / p99 / max), how many took a second or more
 *           and how many SYNs the kernel dropped meanwhile (TcpExt ListenOverflows: a full accept queue; the
 *           client sends the SYN again after 1 s), the server's CPU per connection and its event loop's
 *           delay. Every storm is a fresh gateway process (memory store, hub, the live route behind the
 *           token hook as src/app.ts registers it) warmed by 100 connections of the same kind; the variants
 *           alternate, each round starting one later. `--backlog N` sets the listen backlog (default: Node's
 *           511, which the gateway keeps).
 *
 * The keys file is a real one, written to a temporary directory and read with `loadKeysFile`: one key
 * (`bench`) whose `tokens` hold an HS256 secret (43 characters) and the public key of a P-256 pair
 * generated for the run; tokens are minted with jose (`iss` the key's name, `sub`, `iat`, `exp` 15 minutes
 * on). The per-IP connection rate limit is lifted, as in the fan-out modes (every client is 127.0.0.1).
 */
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportPKCS8, exportSPKI, generateKeyPair, importPKCS8, SignJWT } from 'jose'
import { pinTo } from './fanout-shared.ts'

export type Credential = 'none' | 'hs256' | 'es256'
export const CREDENTIALS: readonly Credential[] = ['none', 'hs256', 'es256']

/** What signs the run's tokens, and the key's name they are issued for. */
export interface Signing { issuer: string, secret: string, privatePem: string, publicPem: string }

export interface TokenBenchOptions {
  credentials: Credential[]
  /** Connections in one storm, opened evenly over `spreadMs`. */
  storm: number
  spreadMs: number
  /** Tokens per algorithm in the in-process verification. */
  verify: number
  rounds: number
  pin: boolean
  /** The listen backlog; undefined: Node's default (511), which the gateway keeps. */
  backlog: number | undefined
}

/** Orchestrator -> token server process. */
export type TokenServerJob =
  | { role: 'verify', keysFile: string, signing: Signing, count: number, rounds: number }
  | { role: 'storm', keysFile: string, signing: Signing, credential: Credential, count: number, spreadMs: number, warmup: number, pin: boolean, round: number, backlog: number | undefined }

/** One algorithm's (or the key lookup's) in-process cost, one pass of `count`. */
export interface VerifyPass {
  what: Credential
  round: number
  count: number
  /** One after another: wall time, CPU on every thread (WebCrypto runs on libuv's pool), event-loop busy time, µs each. */
  serialUs: number
  cpuUs: number
  loopUs: number
  /** 100 in flight: verifications per second, and CPU µs each. */
  concurrentPerSecond: number
  concurrentCpuUs: number
}

/** Server -> storm clients. */
export type ToStorm =
  | { cmd: 'prepare', url: string, credential: Credential, signing: Signing, count: number, warmup: number, round: number }
  | { cmd: 'go', spreadMs: number }

export interface StormResult {
  credential: Credential
  round: number
  count: number
  opened: number
  failed: number
  /** Non-101 answers and socket errors, by status line or error code. */
  failures: Record<string, number>
  /** First connect call to the last hello frame. */
  allMs: number
  /** First connect call to the last connect call (the client's own lag behind the even schedule). */
  openSpreadMs: number
  /** Connections that took a second or more (a SYN dropped by a full accept queue is sent again after 1 s). */
  overOneSecond: number
  p50: number
  p90: number
  p99: number
  max: number
}

/** Storm clients -> server. */
export type FromStorm =
  | { type: 'prepared' }
  | ({ type: 'done' } & StormResult)

/** A storm as the server measured it too. */
export interface StormReport extends StormResult {
  serverCpuMs: number
  /** The kernel's count of SYNs dropped because the listen queue was full (TcpExt ListenOverflows, whole machine) over the storm. */
  listenOverflows: number
  /** Event-loop delay over the storm (monitorEventLoopDelay, 10 ms resolution): p99 and max, ms. */
  loopDelayP99: number
  loopDelayMax: number
}

const HELP = '--tokens takes a comma-separated list of none, hs256, es256'

/** `--tokens none,hs256,es256` (and `--storm`, `--spread-ms`, `--verify`, `--backlog`); undefined without `--tokens`. */
export function tokenOptions (argv: string[]): TokenBenchOptions | undefined {
  const at = argv.indexOf('--tokens')
  if (at < 0) return undefined
  const credentials = (argv[at + 1] ?? '').split(',').map((s) => s.trim().toLowerCase()) as Credential[]
  for (const c of credentials) if (!CREDENTIALS.includes(c)) throw new Error(`${HELP}; got "${c}"`)
  // Keys alone is the yardstick: it runs whether or not it was named.
  if (!credentials.includes('none')) credentials.unshift('none')
  const get = (name: string, dflt: number): number => {
    const i = argv.indexOf(`--${name}`)
    const value = i >= 0 ? Number(argv[i + 1]) : dflt
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`)
    return value
  }
  return { credentials, storm: get('storm', 2000), spreadMs: get('spread-ms', 1000), verify: get('verify', 20_000), rounds: get('rounds', 1), pin: argv.includes('--pin'), backlog: argv.includes('--backlog') ? get('backlog', 511) : undefined }
}

/** The run's signing material: a fresh HS256 secret and P-256 pair. */
export async function newSigning (): Promise<Signing> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true })
  return { issuer: 'bench', secret: randomBytes(32).toString('base64url'), privatePem: await exportPKCS8(privateKey), publicPem: await exportSPKI(publicKey) }
}

/** The keys file as an operator writes it: one key taking tokens of both kinds. */
export function writeKeysFile (dir: string, signing: Signing): string {
  const path = join(dir, 'keys.json')
  writeFileSync(path, JSON.stringify([{
    key: 'bench',
    name: signing.issuer,
    leagues: '*',
    hourly_quota: 3000,
    max_connections: 1_000_000_000,
    allowed_origins: '*',
    tokens: { secrets: [signing.secret], public_keys: [signing.publicPem], max_lifetime_s: 3600 }
  }], null, 2))
  return path
}

/** A function minting one token of `credential` per call, for the fan `sub`, as an app's backend would with jose. */
export async function minter (signing: Signing, credential: Exclude<Credential, 'none'>): Promise<(sub: string) => Promise<string>> {
  const alg = credential === 'hs256' ? 'HS256' : 'ES256'
  const key = credential === 'hs256' ? new TextEncoder().encode(signing.secret) : await importPKCS8(signing.privatePem, 'ES256')
  return async (sub) => {
    const iat = Math.floor(Date.now() / 1000)
    return await new SignJWT({}).setProtectedHeader({ alg, typ: 'JWT' }).setIssuer(signing.issuer).setSubject(sub).setIssuedAt(iat).setExpirationTime(iat + 900).sign(key)
  }
}

function runJob<T> (job: TokenServerJob, pin: boolean): Promise<T> {
  const child = fork(new URL('./fanout-tokens-server.ts', import.meta.url), [JSON.stringify(job)], { execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_FLAGS?.split(' ') ?? []), '--import', 'tsx'] })
  if (pin && child.pid !== undefined) pinTo(child.pid, 0)
  return new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve(msg as T))
    child.once('exit', (code) => { if (code !== 0) reject(new Error(`${job.role} run exited with ${code}`)) })
  })
}

const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' ')
const LABEL: Record<Credential, string> = { none: 'key', hs256: 'HS256', es256: 'ES256' }
const f1 = (n: number): string => n.toFixed(1)
const int = (n: number): string => Math.round(n).toLocaleString('en-US')

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[mid] as number : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function rotate<T> (list: readonly T[], by: number): T[] {
  const k = by % list.length
  return [...list.slice(k), ...list.slice(0, k)]
}

export async function runTokenBench (opts: TokenBenchOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-bench-tokens-'))
  try {
    const signing = await newSigning()
    const keysFile = writeKeysFile(dir, signing)
    console.log(`connecting with tokens: verifyToken over ${int(opts.verify)} tokens per algorithm, storms of ${int(opts.storm)} connections in ${opts.spreadMs} ms, listen backlog ${opts.backlog ?? '511 (default)'} (${opts.credentials.map((c) => LABEL[c]).join(', ')}), ${opts.rounds} round${opts.rounds > 1 ? 's' : ''}, load average ${load()}`)

    const passes = await runJob<VerifyPass[]>({ role: 'verify', keysFile, signing, count: opts.verify, rounds: opts.rounds }, opts.pin)
    console.log('\nverification in process (src/tokens.ts verifyToken; the key: keys.find)')
    for (const p of passes) {
      console.log(`  round ${p.round + 1} ${LABEL[p.what].padEnd(5)}  one at a time ${f1(p.serialUs).padStart(6)} µs wall, ${f1(p.cpuUs).padStart(6)} µs CPU (all threads), ${f1(p.loopUs).padStart(6)} µs event loop busy; 100 in flight ${int(p.concurrentPerSecond).padStart(9)}/s, ${f1(p.concurrentCpuUs)} µs CPU each`)
    }

    const storms: StormReport[] = []
    for (let round = 0; round < opts.rounds; round++) {
      for (const credential of rotate(opts.credentials, round)) {
        const r = await runJob<StormReport>({ role: 'storm', keysFile, signing, credential, count: opts.storm, spreadMs: opts.spreadMs, warmup: 100, pin: opts.pin, round, backlog: opts.backlog }, opts.pin)
        storms.push(r)
        const failures = Object.entries(r.failures).map(([k, v]) => `${v} ${k}`).join(', ')
        console.log(`\nstorm, round ${round + 1}, ${LABEL[credential]}: ${r.opened}/${r.count} open with hello in ${int(r.allMs)} ms (opened over ${int(r.openSpreadMs)} ms)${r.failed > 0 ? `, ${r.failed} failed: ${failures}` : ''}`)
        console.log(`  connect to hello  p50 ${f1(r.p50)} ms, p90 ${f1(r.p90)} ms, p99 ${f1(r.p99)} ms, max ${f1(r.max)} ms; ${r.overOneSecond} took 1 s or more, ${r.listenOverflows} SYNs dropped (accept queue full)`)
        console.log(`  server            ${int(r.serverCpuMs)} ms CPU (${int(r.serverCpuMs * 1000 / r.count)} µs a connection), event loop delay p99 ${f1(r.loopDelayP99)} ms, max ${f1(r.loopDelayMax)} ms`)
      }
    }

    console.log(`\nmedians of ${opts.rounds} round${opts.rounds > 1 ? 's' : ''} (load average now ${load()})`)
    for (const c of opts.credentials) {
      const ps = passes.filter((p) => p.what === c)
      const ss = storms.filter((s) => s.credential === c)
      const m = (pick: (s: StormReport) => number): number => median(ss.map(pick))
      console.log(`${LABEL[c].padEnd(5)}  verify ${f1(median(ps.map((p) => p.serialUs)))} µs (${f1(median(ps.map((p) => p.cpuUs)))} µs CPU, ${int(median(ps.map((p) => p.concurrentPerSecond)))}/s in flight); ` +
        `storm all open ${int(m((s) => s.allMs))} ms, p50 ${f1(m((s) => s.p50))} ms, p99 ${f1(m((s) => s.p99))} ms, server ${int(m((s) => s.serverCpuMs * 1000 / s.count))} µs CPU a connection, ${int(m((s) => s.overOneSecond))} took 1 s or more, ${int(m((s) => s.listenOverflows))} SYNs dropped, failed ${m((s) => s.failed)}`)
    }
    if (opts.rounds > 1) {
      console.log('\nround by round (storm: all open / p50 / p99 ms / server µs CPU a connection / SYNs dropped)')
      for (const c of opts.credentials) {
        console.log(`${LABEL[c].padEnd(5)}  ${storms.filter((s) => s.credential === c).map((s) => `${int(s.allMs)} / ${f1(s.p50)} / ${f1(s.p99)} / ${int(s.serverCpuMs * 1000 / s.count)} / ${s.listenOverflows}`).join(';  ')}`)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
