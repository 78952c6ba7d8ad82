/**
 * `touchline serve`: settings → startGateway → listen; signals: SIGHUP reloads the keys, close-with-grace
 * shuts down on SIGTERM/SIGINT (drain with /readyz failing, stop polling, close sockets with 1001, flush). Nothing else lives here.
 */
import closeWithGrace from 'close-with-grace'
import { pino, type Logger } from 'pino'
import type { Config } from './config.ts'
import { startGateway, type Gateway } from './gateway.ts'
import { DEMO_KEY, KeysFileError } from './client-keys.ts'
import { loggerOptions } from './logger.ts'
import { listenReach, type ListenReach } from './util/listen-reach.ts'

/** How a worker of `touchline serve --workers` (src/cluster.ts) runs the gateway differently. */
export interface WorkerHooks {
  /** Binds every log line to the worker. */
  id: number
  /** Told once the gateway listens, instead of printing the banner (the primary prints one for all). */
  listening: (gateway: Gateway) => void
  /** What `/metrics` answers: every worker's, aggregated by the primary. */
  metricsText: () => Promise<string>
  /** Whether this worker checks the upstream at start: one does for all (src/cluster.ts). */
  probeUpstream: boolean
}

export async function runServer (cfg: Config, worker?: WorkerHooks): Promise<void> {
  const root = pino(loggerOptions(cfg.TOUCHLINE_LOG_LEVEL))
  const log = worker === undefined ? root : root.child({ worker: worker.id })
  // Before the start, which takes a while: Node's default action for SIGHUP is to exit.
  const reloads = reloadOnSighup(log)
  // The upstream is checked at start once: by the one process, or by one worker for all (gateway.ts checkUpstream).
  const gateway = await startGateway(cfg, log, worker === undefined ? { probeUpstream: true } : { metricsText: worker.metricsText, probeUpstream: worker.probeUpstream })
  if (worker === undefined) process.stdout.write(banner(cfg, gateway.url, gateway.provider?.baseUrl))
  else worker.listening(gateway)
  reloads.ready(gateway)
  shutDownOnSignals(gateway, cfg, log, reloads.stop, worker !== undefined)
}

/**
 * What `touchline serve` prints once it listens: where everything is (`extra` lines before the last blank one),
 * on which interfaces the gateway and the embedded provider listen, and a warning when other machines can
 * reach the demo credentials: the provider's demo tokens, the demo client key.
 */
export function banner (cfg: Config, url: string, providerUrl: string | undefined, extra: string[] = []): string {
  const key = cfg.TOUCHLINE_KEYS_FILE === undefined ? DEMO_KEY : '<a key from TOUCHLINE_KEYS_FILE>'
  // Both listen on TOUCHLINE_HOST (gateway.ts startEmbeddedProvider); the URLs name 127.0.0.1 for 0.0.0.0 and ::.
  const gateway = listenReach(cfg.TOUCHLINE_HOST, new URL(url).port)
  const provider = providerUrl === undefined ? undefined : listenReach(cfg.TOUCHLINE_HOST, new URL(providerUrl).port)
  const lines = [
    '',
    `  touchline gateway          ${url}`,
    `    listens on               ${reachLine(gateway)}`,
    `    live scoreboard          ${url}/`,
    `    status dashboard         ${url}/status`,
    `    WebSocket                ${url.replace('http', 'ws')}/v1/live?api_token=${key}`,
    `    REST passthrough         ${url}/v3/football/livescores?api_token=${key}`,
    `    metrics                  ${url}/metrics`,
    // The actual URL (TOUCHLINE_PORT=0 picks a free port): copied as it is, the tail reaches this gateway.
    `    terminal                 npx touchline tail --url ${url}${cfg.TOUCHLINE_KEYS_FILE === undefined ? '' : ' --key <your key>'}`,
    ...(providerUrl !== undefined && provider !== undefined
      ? [`  embedded provider          ${providerUrl}  (matches at ${cfg.TOUCHLINE_SIM_SPEED}x; tokens demo-free ... demo-enterprise)`,
          `    listens on               ${reachLine(provider)}`]
      : ['  upstream                   ' + (cfg.TOUCHLINE_UPSTREAM_URL ?? '')]),
    `  store                      ${cfg.TOUCHLINE_REDIS_URL === undefined ? 'in memory' : 'Redis'}`,
    `  client key                 ${key}`,
    ...extra,
    ...exposureWarning(cfg, gateway, provider),
    ''
  ]
  return lines.join('\n') + '\n'
}

function reachLine (reach: ListenReach): string {
  return `${reach.where}: ${reach.otherMachines ? 'other machines can connect' : 'this machine only'}`
}

/** The warning lines when a demo credential answers other machines; none when everything is on loopback. */
function exposureWarning (cfg: Config, gateway: ListenReach, provider: ListenReach | undefined): string[] {
  const demoProvider = provider?.otherMachines === true
  const demoKey = gateway.otherMachines && cfg.TOUCHLINE_KEYS_FILE === undefined
  if (!demoProvider && !demoKey) return []
  return [
    '',
    '  WARNING: other machines can use',
    ...(demoProvider ? [`    - the embedded provider and its demo tokens (demo-free ... demo-enterprise), on ${provider.where}`] : []),
    ...(demoKey ? [`    - the demo client key "${DEMO_KEY}", on ${gateway.where}`] : []),
    `  TOUCHLINE_HOST=127.0.0.1 keeps ${demoProvider && demoKey ? 'them' : 'it'} on this machine.`,
    ...(demoProvider ? ['  TOUCHLINE_UPSTREAM_URL (a real upstream) does without the provider.'] : []),
    ...(demoKey ? ['  TOUCHLINE_KEYS_FILE (keys of your own) replaces the demo key.'] : [])
  ]
}

/**
 * SIGHUP re-reads the keys file and applies it to open connections, and does nothing else. One
 * received while the gateway starts is applied once it is up; none after the shutdown began.
 */
function reloadOnSighup (log: Logger): { ready: (gateway: Gateway) => void, stop: () => void } {
  let gateway: Gateway | undefined
  let missed = false
  let stopped = false
  // reload answers its own failures: it never rejects.
  process.on('SIGHUP', () => {
    if (stopped) return
    if (gateway === undefined) missed = true
    else reload(gateway, log)
  })
  return {
    ready (started) {
      gateway = started
      if (missed) reload(started, log)
    },
    stop () { stopped = true }
  }
}

/**
 * SIGTERM and SIGINT shut down gracefully (docs/settings.md, "Signals"); a second one during the shutdown exits at once
 * (code 1), as does the deadline: the drain delay plus TOUCHLINE_SHUTDOWN_TIMEOUT_MS (10 s by default).
 * close-with-grace listens to SIGHUP by default: told to skip it.
 *
 * A worker of `--workers` leaves SIGINT to its primary, which sends it SIGTERM, and takes any further SIGTERM
 * as the same request: Ctrl-C reaches every process of the terminal's group, and a supervisor may signal the
 * whole group (systemd, `timeout`) while the primary forwards the signal too. The primary forces the exit on
 * a second signal (src/cluster.ts).
 */
function shutDownOnSignals (gateway: Gateway, cfg: Config, log: Logger, stopReloads: () => void, worker: boolean): void {
  let begun = false
  const grace = closeWithGrace({
    delay: cfg.TOUCHLINE_DRAIN_DELAY_MS + cfg.TOUCHLINE_SHUTDOWN_TIMEOUT_MS,
    skip: worker ? ['SIGHUP', 'SIGINT', 'SIGTERM'] : ['SIGHUP'],
    logger: { error: (message: unknown) => log.error(String(message)) }
  }, async ({ signal, err }) => {
    begun = true
    stopReloads()
    if (err !== undefined) log.error({ err }, 'shutting down after an error')
    else log.info({ signal: signal ?? (worker ? 'SIGTERM' : undefined) }, 'shutting down')
    await gateway.close()
  })
  if (worker) {
    process.on('SIGINT', () => {})
    process.on('SIGTERM', () => { if (!begun) grace.close() })
  }
}

async function reload (gateway: Gateway, log: Logger): Promise<void> {
  try {
    const applied = await gateway.reloadKeys()
    log.info({ keys: gateway.keys.all().length, ...applied }, 'client keys reloaded')
  } catch (err) {
    // The message names the file and the entry, never a key (loadKeysFile); a stack would say nothing more.
    const reason = err instanceof KeysFileError ? err.message : String(err)
    log.error({ reason }, 'client keys not reloaded; the previous keys stay in force')
  }
}
