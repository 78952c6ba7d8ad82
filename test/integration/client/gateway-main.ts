/**
 * A gateway process for the client tests: `touchline serve` without the poller (the test writes the store
 * itself, in Redis, so a goal happens at an exact moment and the log outlives the process). Prints the
 * banner line the tests wait for; SIGHUP reloads the keys file, as `touchline serve` does.
 */
import { pino } from 'pino'
import { loadConfig } from '../../../src/config.ts'
import { startGateway } from '../../../src/gateway.ts'

const cfg = loadConfig()
const gw = await startGateway(cfg, pino({ level: cfg.TOUCHLINE_LOG_LEVEL }), { poll: false })
process.on('SIGHUP', () => {
  gw.reloadKeys().then((r) => process.stdout.write(`keys reloaded ${JSON.stringify(r)}\n`), (err: unknown) => process.stdout.write(`keys reload failed ${String(err)}\n`))
})
process.on('SIGTERM', () => { gw.close().finally(() => process.exit(0)) })
process.stdout.write(`touchline gateway ${gw.url}\n`)
