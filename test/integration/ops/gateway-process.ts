/**
 * `touchline serve` as a real child process for the operations tests: real signals, real sockets, its
 * stdout read as the operator would (pino JSON lines, plus the banner).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))

export interface LogLine { level: number, msg: string, [field: string]: unknown }

export interface GatewayProcess {
  child: ChildProcess
  /** The gateway's base URL, from the banner. */
  url: string
  exited: Promise<number | null>
  /** Everything written to stdout and stderr so far. */
  output: () => string
  /** stdout lines that are pino JSON, in order. */
  logs: () => LogLine[]
  /** Waits for the first log line `match` accepts among those not yet returned by an earlier call. */
  waitForLog: (match: (line: LogLine) => boolean, ms?: number) => Promise<LogLine>
}

export interface SpawnOptions {
  env?: Record<string, string>
  /** Extra node flags before the script (e.g. `--require` a preload). */
  nodeArgs?: string[]
  /** Called with the child as soon as it is spawned, before the banner (to signal it while it starts). */
  onSpawn?: (child: ChildProcess) => void
}

/** Starts the gateway (embedded provider, ports 0) and waits for its banner. Killed when the test ends. */
export async function spawnGateway (opts: SpawnOptions = {}): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [...opts.nodeArgs ?? [], BIN, 'serve'], {
    env: { ...process.env, NODE_ENV: 'test', TOUCHLINE_HOST: '127.0.0.1', TOUCHLINE_PORT: '0', TOUCHLINE_PROVIDER_PORT: '0', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  opts.onSpawn?.(child)
  onTestFinished(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const logs = (): LogLine[] => out.split('\n').filter((l) => l.startsWith('{')).flatMap((l) => {
    try { return [JSON.parse(l) as LogLine] } catch { return [] }
  })
  let seen = 0
  /** Waits for `find` to find something in the output; fails at once when the process exits first. */
  const inOutput = async <T>(find: () => T | undefined, what: string, ms: number): Promise<T> => await waitFor(() => `${what} in output:\n${out}`, () => {
    const found = find()
    if (found === undefined && child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}) before ${what}:\n${out}`)
    return found
  }, ms, 50) as T
  const [, url] = await inOutput(() => out.match(/touchline gateway\s+(http:\/\/\S+)/) ?? undefined, 'banner', 30_000)
  return {
    child,
    url: url as string,
    exited,
    output: () => out,
    logs,
    waitForLog: async (match, ms = 10_000) => await inOutput(() => {
      const all = logs()
      const i = all.findIndex((l, n) => n >= seen && match(l))
      if (i < 0) return undefined
      seen = i + 1
      return all[i]
    }, 'matching log line', ms)
  }
}
