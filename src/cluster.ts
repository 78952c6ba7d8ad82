/**
 * `touchline serve --workers N` (or TOUCHLINE_WORKERS; `auto`: one per core): N gateway processes on one port,
 * with node:cluster. The primary holds the listening socket and hands each new connection to a worker in turn
 * (round-robin); every worker is a whole gateway over the same Redis, so they share the event log, one poller
 * (the lease) and cursors that resume on any of them (docs/operations.md, "Running on every core").
 *
 * The primary serves no client itself. It starts the embedded provider once (TOUCHLINE_UPSTREAM_URL unset) and
 * points every worker at it, prints the banner once every worker listens, starts a worker again when one exits
 * (with a growing delay when they die at start, and gives up after five such deaths in a row), forwards
 * SIGTERM and SIGINT (as SIGTERM) and SIGHUP to every worker, and answers a worker's `/metrics` with every
 * worker's metrics aggregated.
 */
import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'
import { pino, type Logger } from 'pino'
import { backoffDelay } from '@touchline/core'
import { KeysFileError } from './client-keys.ts'
import { ConfigError, parseWorkers, WORKERS_NEED_REDIS, type Config } from './config.ts'
import { startEmbeddedProvider, type Gateway } from './gateway.ts'
import { loggerOptions } from './logger.ts'
import { aggregateSnapshots, createPrimaryMetrics, snapshotOf, type MetricsSnapshot } from './metrics.ts'
import { banner, runServer } from './server.ts'

/** A worker that exits within this long of its start (or before it listens) died at start. */
const QUICK_DEATH_MS = 10_000
/** Deaths at start in a row, over all the workers, after which the primary gives up. */
const MAX_QUICK_DEATHS = 5
/** The delay before starting a worker again after the first death at start; doubled for each next one (backoffDelay: jittered, capped). */
const RESTART_BASE_MS = 500
const RESTART_MAX_MS = 8000
/**
 * How long the primary's shutdown waits for its workers beyond their own deadline (the drain delay plus
 * TOUCHLINE_SHUTDOWN_TIMEOUT_MS, src/server.ts; they run side by side): the margin covers a worker still loading.
 */
const SHUTDOWN_MARGIN_MS = 2000
/** How long a worker's metrics may take to come back to the primary before the aggregate goes without them. */
const SNAPSHOT_TIMEOUT_MS = 2000
/** How long a worker's `/metrics` waits for the primary's aggregate. */
const AGGREGATE_TIMEOUT_MS = 5000

/** What the primary and its workers tell each other over the IPC channel (`t` keeps them apart from others). */
type Message =
  | { t: 'touchline:listening', url: string }
  | { t: 'touchline:failed', message: string, code: number }
  | { t: 'touchline:aggregate?', id: number }
  | { t: 'touchline:aggregate', id: number, text?: string, error?: string }
  | { t: 'touchline:snapshot?', id: number }
  | { t: 'touchline:snapshot', id: number, snapshot: MetricsSnapshot }

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && typeof (m as { t?: unknown }).t === 'string' && (m as { t: string }).t.startsWith('touchline:')

/**
 * `touchline serve`: one process, the primary of `--workers`, or one of its workers. `flag` is the value of
 * `--workers`, which wins over TOUCHLINE_WORKERS. Throws ConfigError for a value that is not a count and for
 * workers without Redis.
 */
export async function serve (cfg: Config, flag: string | undefined): Promise<void> {
  if (cluster.isWorker) {
    runWorker(cfg)
    return
  }
  const workers = flag === undefined ? cfg.TOUCHLINE_WORKERS : flagValue(flag)
  if (workers === undefined) {
    await runServer(cfg)
    return
  }
  if (cfg.TOUCHLINE_REDIS_URL === undefined) throw new ConfigError(`--workers: ${WORKERS_NEED_REDIS}`, ['--workers'])
  await new Primary(cfg, workers === 'auto' ? availableParallelism() : workers).start()
}

function flagValue (flag: string): number | 'auto' {
  const parsed = parseWorkers(flag)
  if (typeof parsed === 'object') throw new ConfigError(`--workers: ${parsed.problem}`, ['--workers'])
  return parsed
}

function send (message: Message, then?: () => void): void {
  if (process.send === undefined || !process.connected) {
    then?.()
    return
  }
  process.send(message, undefined, undefined, () => then?.())
}

/**
 * A worker: the gateway of src/server.ts, which tells the primary when it listens (or why it could not start:
 * the primary prints it), answers the primary's request for its metrics, and asks the primary for every
 * worker's metrics on `/metrics`. SIGINT is left to the primary, which forwards it as SIGTERM (src/server.ts).
 */
function runWorker (cfg: Config): void {
  // Until the gateway installs its own handlers (src/server.ts): Ctrl-C is the primary's to forward.
  process.on('SIGINT', () => {})
  let gateway: Gateway | undefined
  const aggregates = new Map<number, { resolve: (text: string) => void, reject: (err: Error) => void }>()
  let next = 0
  process.on('message', (m: unknown) => {
    if (!isMessage(m)) return
    if (m.t === 'touchline:snapshot?') {
      const registry = gateway?.metrics.registry
      ;(registry === undefined ? Promise.resolve([]) : snapshotOf(registry)).then(
        (snapshot) => { send({ t: 'touchline:snapshot', id: m.id, snapshot }) },
        () => { send({ t: 'touchline:snapshot', id: m.id, snapshot: [] }) })
    } else if (m.t === 'touchline:aggregate') {
      const waiting = aggregates.get(m.id)
      aggregates.delete(m.id)
      if (m.text !== undefined) waiting?.resolve(m.text)
      else waiting?.reject(new Error(`metrics of the workers: ${m.error ?? 'no answer'}`))
    }
  })
  const metricsText = async (): Promise<string> => await new Promise<string>((resolve, reject) => {
    const id = next++
    const timer = setTimeout(() => {
      aggregates.delete(id)
      reject(new Error(`the primary did not send the workers' metrics within ${AGGREGATE_TIMEOUT_MS} ms`))
    }, AGGREGATE_TIMEOUT_MS)
    aggregates.set(id, { resolve: (t) => { clearTimeout(timer); resolve(t) }, reject: (e) => { clearTimeout(timer); reject(e) } })
    send({ t: 'touchline:aggregate?', id })
  })
  const listening = (started: Gateway): void => {
    gateway = started
    send({ t: 'touchline:listening', url: started.url })
  }
  // The first worker checks the upstream at start for all (a token refused stops it, and the primary with it:
  // #onExit); the others, and any started again later, do not: N workers would make N calls and N warnings.
  const id = cluster.worker?.id ?? 0
  runServer(cfg, { id, listening, metricsText, probeUpstream: id === 1 }).catch((err: unknown) => {
    // A bad setting (Redis unreachable, a port it cannot listen on) is one line, which the primary prints;
    // anything else keeps its stack here, as `touchline serve` alone would print it.
    const setting = err instanceof ConfigError || err instanceof KeysFileError
    if (!setting) process.stderr.write(`touchline: worker ${cluster.worker?.id ?? '?'}: ${(err as Error).stack ?? String(err)}\n`)
    const code = setting ? 2 : 1
    send({ t: 'touchline:failed', message: (err as Error).message ?? String(err), code }, () => process.exit(code))
  })
}

/** One place in the pool: the worker in it now, started again in the same place when it exits. */
interface Slot {
  worker?: Worker
  startedAt: number
  listening: boolean
  /** Why its worker could not start, as it said. */
  failure?: string
  /** A SIGHUP that came while the worker was starting: sent once it listens. */
  hupPending: boolean
  restart?: NodeJS.Timeout
}

class Primary {
  readonly #log: Logger
  readonly #slots: Slot[]
  readonly #metrics = createPrimaryMetrics()
  #env: Record<string, string> = {}
  #provider: Gateway['provider']
  #url: string | undefined
  #announced = false
  #stopping = false
  #quickDeaths = 0
  #requests = 0
  readonly #snapshots = new Map<string, (snapshot: MetricsSnapshot) => void>()

  constructor (private readonly cfg: Config, count: number) {
    this.#log = pino(loggerOptions(cfg.TOUCHLINE_LOG_LEVEL)).child({ component: 'primary' })
    this.#slots = Array.from({ length: count }, () => ({ startedAt: 0, listening: false, hupPending: false }))
  }

  async start (): Promise<void> {
    if (this.cfg.TOUCHLINE_UPSTREAM_URL === undefined) {
      // Once, here: each worker polling its own simulator would see other matches. The workers reach it as
      // an upstream of their own choosing, at the simulator's clock rate.
      this.#provider = await startEmbeddedProvider(this.cfg, this.#log)
      this.#env = { TOUCHLINE_UPSTREAM_URL: this.#provider.baseUrl, TOUCHLINE_UPSTREAM_CLOCK_RATE: String(this.cfg.TOUCHLINE_SIM_SPEED) }
    }
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => { this.stop(signal).catch(() => process.exit(1)) })
    process.on('SIGHUP', () => { this.#hangUp() })
    for (const slot of this.#slots) this.#fork(slot)
  }

  #fork (slot: Slot): void {
    const worker = cluster.fork(this.#env)
    Object.assign(slot, { worker, startedAt: Date.now(), listening: false, failure: undefined, restart: undefined })
    worker.on('message', (m: unknown) => { if (isMessage(m)) this.#onMessage(slot, worker, m) })
    worker.on('exit', (code, signal) => { this.#onExit(slot, worker, code, signal) })
    // A message to a worker that just died fails: its exit is what counts, and the primary must not fall with it.
    worker.on('error', (err) => { this.#log.warn({ worker: worker.id, err }, 'worker channel error') })
    this.#metrics.workers.set(this.#slots.filter((s) => s.worker !== undefined).length)
  }

  #onMessage (slot: Slot, worker: Worker, m: Message): void {
    switch (m.t) {
      case 'touchline:listening':
        slot.listening = true
        this.#url ??= m.url
        if (slot.hupPending) worker.process.kill('SIGHUP')
        slot.hupPending = false
        if (this.#announced) this.#log.info({ worker: worker.id, pid: worker.process.pid }, 'worker listening')
        else this.#announceOnceAllListen()
        return
      case 'touchline:failed':
        slot.failure = m.message
        return
      case 'touchline:aggregate?':
        this.#aggregate().then(
          (text) => { if (worker.isConnected()) worker.send({ t: 'touchline:aggregate', id: m.id, text }) },
          (err: unknown) => { if (worker.isConnected()) worker.send({ t: 'touchline:aggregate', id: m.id, error: String(err) }) })
        return
      case 'touchline:snapshot':
        this.#snapshots.get(`${worker.id}:${m.id}`)?.(m.snapshot)
    }
  }

  #announceOnceAllListen (): void {
    if (this.#url === undefined || !this.#slots.every((s) => s.listening)) return
    this.#announced = true
    const pids = this.#slots.map((s) => s.worker?.process.pid).join(', ')
    process.stdout.write(banner(this.cfg, this.#url, this.#provider?.baseUrl, [
      `  workers                    ${this.#slots.length} processes on one port (pids ${pids}; primary ${process.pid})`
    ]))
  }

  #onExit (slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return
    slot.worker = undefined
    this.#metrics.workers.set(this.#slots.filter((s) => s.worker !== undefined).length)
    if (this.#stopping) return
    const reason = slot.failure ?? (signal !== null ? `killed by ${signal}` : `exit code ${String(code)}`)
    // A bad setting before anything listened: the same line and exit code as a gateway of one process.
    if (!this.#announced && code === 2 && slot.failure !== undefined) {
      this.stop(undefined, { line: slot.failure, code: 2 }).catch(() => process.exit(2))
      return
    }
    const quick = !slot.listening || Date.now() - slot.startedAt < QUICK_DEATH_MS
    this.#quickDeaths = quick ? this.#quickDeaths + 1 : 0
    if (this.#quickDeaths >= MAX_QUICK_DEATHS) {
      this.stop(undefined, { line: `workers keep failing at start (${this.#quickDeaths} in a row); the last: ${reason}`, code: 1 }).catch(() => process.exit(1))
      return
    }
    const delay = quick ? backoffDelay(this.#quickDeaths, { baseMs: RESTART_BASE_MS, capMs: RESTART_MAX_MS }) : 0
    this.#metrics.workerRestarts.inc({ exit: signal ?? `code ${String(code)}` })
    this.#log.warn({ worker: worker.id, pid: worker.process.pid, reason, restart_in_ms: delay }, 'worker exited; starting another in its place')
    slot.restart = setTimeout(() => { if (!this.#stopping) this.#fork(slot) }, delay)
  }

  /** SIGHUP: every worker reloads the keys; one still starting does once it listens. */
  #hangUp (): void {
    for (const slot of this.#slots) {
      if (slot.worker !== undefined && slot.listening) slot.worker.process.kill('SIGHUP')
      else slot.hupPending = true
    }
  }

  /**
   * Every worker shuts down gracefully (SIGTERM), then the provider closes. Exits 0 when every worker did;
   * 1 when one did not or the deadline passed, and at once on a second signal. `fatal`: why the primary gives
   * up (one line on stderr) and its exit code.
   */
  async stop (signal?: string, fatal?: { line: string, code: number }): Promise<void> {
    if (this.#stopping) {
      if (signal !== undefined) {
        this.#log.error({ signal }, 'second signal: every worker killed')
        this.#killAll()
        process.exit(1)
      }
      return
    }
    this.#stopping = true
    if (signal !== undefined) this.#log.info({ signal }, 'shutting down every worker')
    const live = this.#slots.filter((s) => s.worker !== undefined)
    for (const slot of this.#slots) clearTimeout(slot.restart)
    const exits = live.map(async (slot) => await new Promise<boolean>((resolve) => {
      const w = slot.worker as Worker
      // A worker still starting has no handler yet: SIGTERM ends it, which is fine at a shutdown.
      w.once('exit', (code, sig) => resolve(code === 0 || (!slot.listening && sig === 'SIGTERM')))
      w.process.kill('SIGTERM')
    }))
    const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), (this.cfg.TOUCHLINE_DRAIN_DELAY_MS + this.cfg.TOUCHLINE_SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS)).unref())
    const outcome = await Promise.race([Promise.all(exits), deadline])
    if (outcome === 'late') {
      this.#log.error({ deadline_ms: (this.cfg.TOUCHLINE_DRAIN_DELAY_MS + this.cfg.TOUCHLINE_SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS) }, 'workers still running at the deadline: killed')
      this.#killAll()
    }
    await this.#provider?.close().catch(() => {})
    if (fatal !== undefined) process.stderr.write(`touchline: ${fatal.line}\n`)
    process.exit(fatal?.code ?? (outcome !== 'late' && outcome.every(Boolean) ? 0 : 1))
  }

  #killAll (): void {
    for (const slot of this.#slots) slot.worker?.process.kill('SIGKILL')
  }

  /** Every listening worker's metrics and the primary's own, as one exposition (metrics.ts aggregateSnapshots). */
  async #aggregate (): Promise<string> {
    const id = this.#requests++
    const workers = this.#slots.flatMap((s) => s.worker !== undefined && s.listening && s.worker.isConnected() ? [s.worker] : [])
    const snapshots = await Promise.all(workers.map(async (w) => await new Promise<MetricsSnapshot | undefined>((resolve) => {
      const key = `${w.id}:${id}`
      const timer = setTimeout(() => { this.#snapshots.delete(key); resolve(undefined) }, SNAPSHOT_TIMEOUT_MS)
      this.#snapshots.set(key, (snapshot) => { clearTimeout(timer); this.#snapshots.delete(key); resolve(snapshot) })
      w.send({ t: 'touchline:snapshot?', id })
    })))
    const own = await snapshotOf(this.#metrics.registry)
    return await aggregateSnapshots([own, ...snapshots.filter((s): s is MetricsSnapshot => s !== undefined)])
  }
}
