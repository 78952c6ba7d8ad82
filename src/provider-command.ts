/** `touchline provider`: the embedded provider alone, as a local sandbox of the upstream API. */
import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import type { Config } from './config.ts'
import { loggerOptions } from './logger.ts'
import { listenReach } from './util/listen-reach.ts'
import { DEMO_TOKENS, readReplayFiles, startProvider, type FaultOptions, type ReplayFile } from '@touchline/provider'

export interface ProviderFlags {
  port?: string
  host?: string
  seed?: string
  speed?: string
  replay?: string[]
  'error-rate'?: string
  'latency-ms'?: string
  'hang-rate'?: string
  'rate-limit-burst'?: string
  'outage-s'?: string
  latest?: string
}

function numberFlag (name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > max) {
    process.stderr.write(`touchline: --${name} must be a number from 0 to ${max}, got "${value}"\n`)
    process.exit(2)
  }
  return n
}

/** `--latest all|base`: what livescores/latest reports (base = the real API's tracked fields only). */
function latestFrom (value: string | undefined): { latestTracks?: 'all' | 'base' } {
  if (value === undefined) return {}
  if (value !== 'all' && value !== 'base') {
    process.stderr.write(`touchline: --latest must be all or base, got "${value}"\n`)
    process.exit(2)
  }
  return { latestTracks: value }
}

/** Fault injection from the command line (all off by default). */
function faultsFrom (flags: ProviderFlags): FaultOptions {
  const faults: FaultOptions = {}
  if (flags['error-rate'] !== undefined) faults.errorRate = numberFlag('error-rate', flags['error-rate'], 0, 1)
  if (flags['latency-ms'] !== undefined) faults.latencyMs = numberFlag('latency-ms', flags['latency-ms'], 0, 60_000)
  if (flags['hang-rate'] !== undefined) faults.hangRate = numberFlag('hang-rate', flags['hang-rate'], 0, 1)
  if (flags['rate-limit-burst'] !== undefined) faults.rateLimitBurst = numberFlag('rate-limit-burst', flags['rate-limit-burst'], 0)
  if (flags['outage-s'] !== undefined) faults.outageUntil = Date.now() + numberFlag('outage-s', flags['outage-s'], 0) * 1000
  return faults
}

/** `--replay FILE...`: an unreadable file or a wildcard matching nothing stops the start, named, with exit code 2. */
function replayFilesFrom (args: readonly string[]): ReplayFile[] {
  try {
    return readReplayFiles(args)
  } catch (err) {
    process.stderr.write(`touchline: ${(err as Error).message}\n`)
    process.exit(2)
  }
}

export async function runProvider (cfg: Config, flags: ProviderFlags): Promise<void> {
  const log = pino(loggerOptions(cfg.TOUCHLINE_LOG_LEVEL))
  const replay = replayFilesFrom(flags.replay ?? [])
  const speed = numberFlag('speed', flags.speed, cfg.TOUCHLINE_SIM_SPEED)
  const host = flags.host ?? (cfg.TOUCHLINE_HOST === '0.0.0.0' ? '127.0.0.1' : cfg.TOUCHLINE_HOST)
  const provider = await startProvider({
    port: numberFlag('port', flags.port, cfg.TOUCHLINE_PROVIDER_PORT),
    host,
    seed: numberFlag('seed', flags.seed, cfg.TOUCHLINE_SEED),
    simSpeed: speed,
    replay,
    faults: faultsFrom(flags),
    ...latestFrom(flags.latest),
    logger: log.child({ component: 'provider' }, { level: cfg.TOUCHLINE_LOG_LEVEL === 'info' ? 'warn' : cfg.TOUCHLINE_LOG_LEVEL })
  })
  const live = provider.world.inplay(Date.now()).length
  const reach = listenReach(host, new URL(provider.baseUrl).port)
  process.stdout.write([
    '',
    `  touchline provider: the football data API, embedded  ${provider.baseUrl}`,
    `  listens on ${reach.where}: ${reach.otherMachines ? 'other machines can connect' : 'this machine only'}`,
    `  ${live} fixtures in play now; matches run at ${speed}x`,
    '',
    '  demo tokens (one per plan):',
    ...Object.entries(DEMO_TOKENS).map(([plan, token]) => `    ${plan.padEnd(11)} ${token}`),
    '',
    `  try: curl '${provider.baseUrl}/football/livescores/inplay?api_token=${DEMO_TOKENS.enterprise}&include=participants;scores;state'`,
    `  a gateway in front: TOUCHLINE_UPSTREAM_URL=${provider.baseUrl} TOUCHLINE_UPSTREAM_CLOCK_RATE=${speed} TOUCHLINE_PORT=8090 npx touchline serve`,
    // The demo tokens are in this banner and in the docs: on an address other machines reach, they are anyone's.
    ...(reach.otherMachines ? ['', `  WARNING: other machines can use these demo tokens, on ${reach.where}; --host 127.0.0.1 keeps them on this machine.`] : []),
    ''
  ].join('\n') + '\n')
  closeWithGrace({ delay: 5000 }, async ({ err }) => {
    if (err !== undefined) log.error({ err }, 'shutting down after an error')
    await provider.close()
  })
}
