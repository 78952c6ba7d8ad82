/**
 * `touchline serve`: settings → startGateway → listen; close-with-grace for shutdown (stop polling, close
 * sockets with 1001, flush). Nothing else lives here.
 */
import closeWithGrace from 'close-with-grace'
import { pino } from 'pino'
import type { Config } from './config.ts'
import { startGateway } from './gateway.ts'
import { DEMO_KEY } from './keys.ts'
import { loggerOptions } from './logger.ts'

export async function runServer (cfg: Config): Promise<void> {
  const log = pino(loggerOptions(cfg.TOUCHLINE_LOG_LEVEL))
  const gateway = await startGateway(cfg, log)
  const key = cfg.TOUCHLINE_KEYS_FILE === undefined ? DEMO_KEY : '<a key from TOUCHLINE_KEYS_FILE>'
  const lines = [
    '',
    `  touchline gateway          ${gateway.url}`,
    `    live scoreboard          ${gateway.url}/`,
    `    status dashboard         ${gateway.url}/status`,
    `    WebSocket                ${gateway.url.replace('http', 'ws')}/v1/live?api_token=${key}`,
    `    REST passthrough         ${gateway.url}/v3/football/livescores?api_token=${key}`,
    `    metrics                  ${gateway.url}/metrics`,
    gateway.provider !== undefined
      ? `  embedded provider          ${gateway.provider.baseUrl}  (matches at ${cfg.TOUCHLINE_SIM_SPEED}x; tokens demo-free ... demo-enterprise)`
      : '  upstream                   ' + (cfg.TOUCHLINE_UPSTREAM_URL ?? ''),
    `  store                      ${cfg.TOUCHLINE_REDIS_URL === undefined ? 'in memory' : 'Redis'}`,
    `  client key                 ${key}`,
    ''
  ]
  process.stdout.write(lines.join('\n') + '\n')
  process.on('SIGHUP', () => {
    try {
      const removed = gateway.reloadKeys()
      log.info({ keys: gateway.keys.all().length, removed }, 'client keys reloaded')
    } catch (err) {
      log.error({ err }, 'client keys not reloaded; the previous keys stay in force')
    }
  })
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err !== undefined) log.error({ err }, 'shutting down after an error')
    else log.info({ signal }, 'shutting down')
    await gateway.close()
  })
}
