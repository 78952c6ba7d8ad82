/** `touchline provider`: the embedded provider alone, as a local sandbox of the upstream API. */
import { readFileSync } from 'node:fs'
import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import type { Config } from '../config.ts'
import { loggerOptions } from '../logger.ts'
import { startProvider } from './index.ts'
import { DEMO_TOKENS } from './plans.ts'

export interface ProviderFlags {
  port?: string
  host?: string
  seed?: string
  speed?: string
  replay?: string[]
}

function intFlag (name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0) {
    process.stderr.write(`touchline: --${name} must be a non-negative number, got "${value}"\n`)
    process.exit(2)
  }
  return n
}

export async function runProvider (cfg: Config, flags: ProviderFlags): Promise<void> {
  const log = pino(loggerOptions(cfg.TOUCHLINE_LOG_LEVEL))
  const replay = (flags.replay ?? []).map((file) => ({ file, json: JSON.parse(readFileSync(file, 'utf8')) as unknown }))
  const provider = await startProvider({
    port: intFlag('port', flags.port, cfg.TOUCHLINE_PROVIDER_PORT),
    host: flags.host ?? (cfg.TOUCHLINE_HOST === '0.0.0.0' ? '127.0.0.1' : cfg.TOUCHLINE_HOST),
    seed: intFlag('seed', flags.seed, cfg.TOUCHLINE_SEED),
    simSpeed: intFlag('speed', flags.speed, cfg.TOUCHLINE_SIM_SPEED),
    replay,
    logger: log.child({ component: 'provider' }, { level: cfg.TOUCHLINE_LOG_LEVEL === 'info' ? 'warn' : cfg.TOUCHLINE_LOG_LEVEL })
  })
  const live = provider.world.inplay(Date.now()).length
  process.stdout.write([
    '',
    `  touchline provider: the football data API, embedded  ${provider.baseUrl}`,
    `  ${live} fixtures in play now; matches run at ${cfg.TOUCHLINE_SIM_SPEED}x`,
    '',
    '  demo tokens (one per plan):',
    ...Object.entries(DEMO_TOKENS).map(([plan, token]) => `    ${plan.padEnd(11)} ${token}`),
    '',
    `  try: curl '${provider.baseUrl}/football/livescores/inplay?api_token=${DEMO_TOKENS.enterprise}&include=participants;scores;state'`,
    ''
  ].join('\n') + '\n')
  closeWithGrace({ delay: 5000 }, async ({ err }) => {
    if (err !== undefined) log.error({ err }, 'shutting down after an error')
    await provider.close()
  })
}
