/**
 * The `touchline` command: `serve` (default), `provider`, `tail`, `push-keys`. Settings come from TOUCHLINE_* variables
 * (docs/settings.md); an invalid one stops the start with its name and exit code 2.
 */
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { KeysFileError } from './client-keys.ts'

const USAGE = `usage: touchline [serve|provider|tail|push-keys] [options]

  serve [--workers N|auto]   the gateway, with the embedded provider unless TOUCHLINE_UPSTREAM_URL is set (default);
                             --workers: N processes on one port (auto: one per core), over TOUCHLINE_REDIS_URL
  provider [--port 8081] [--seed N] [--speed N] [--replay FILE...]
           [--error-rate 0..1] [--latency-ms N] [--hang-rate 0..1] [--rate-limit-burst N] [--outage-s N]
           [--latest all|base]
                             only the embedded provider: a local sandbox of the football data API,
                             with optional fault injection (off by default)
  tail [--league ID]... [--fixture ID]... [--team ID]... [--kinds KIND,...] [--since CURSOR] [--json]
       [--url http://127.0.0.1:8080] [--key demo]
                             print live changes in the terminal (all leagues of the key without --league,
                             --fixture or --team; --kinds e.g. score_changed,state_changed)
  push-keys                  print a new VAPID key pair for Web Push alerts, as TOUCHLINE_VAPID_* settings
`

/**
 * `--replay A B C`: every argument after the flag up to the next option is a replay file (parseArgs takes one
 * value per flag), so a shell wildcard's expansion works; quoted wildcards are expanded by the provider.
 */
function spreadReplayFiles (args: readonly string[]): string[] {
  const out: string[] = []
  // 'off', 'first' (the flag is out, its file next) or 'more' (each further file gets its own flag).
  let replay: 'off' | 'first' | 'more' = 'off'
  for (const arg of args) {
    if (arg.startsWith('-')) replay = 'off'
    if (arg === '--replay' || arg.startsWith('--replay=')) replay = arg === '--replay' ? 'first' : 'more'
    else if (replay === 'first') replay = 'more'
    else if (replay === 'more') out.push('--replay')
    out.push(arg)
  }
  return out
}

function fail (message: string, code: number): never {
  process.stderr.write(`touchline: ${message}\n`)
  process.exit(code)
}

function config (): Config {
  try {
    return loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 2)
    throw err
  }
}

async function main (argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv[0]?.startsWith('-') === true ? ['serve', ...argv] : argv
  if (command === 'help' || rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE)
    return
  }
  switch (command) {
    case 'provider': {
      const { values } = parseArgs({
        args: spreadReplayFiles(rest),
        options: {
          port: { type: 'string' },
          seed: { type: 'string' },
          speed: { type: 'string' },
          host: { type: 'string' },
          replay: { type: 'string', multiple: true },
          'error-rate': { type: 'string' },
          'latency-ms': { type: 'string' },
          'hang-rate': { type: 'string' },
          'rate-limit-burst': { type: 'string' },
          'outage-s': { type: 'string' },
          latest: { type: 'string' }
        },
        strict: true
      })
      const cfg = config()
      const { runProvider } = await import('./provider-command.ts')
      await runProvider(cfg, values)
      return
    }
    case 'serve': {
      const { values } = parseArgs({ args: rest, options: { workers: { type: 'string' } }, strict: true })
      const cfg = config()
      // One process, or the primary of `--workers` (TOUCHLINE_WORKERS), or one of its workers.
      const { serve } = await import('./cluster.ts')
      await serve(cfg, values.workers)
      return
    }
    case 'tail': {
      const { tailCommand } = await import('./tail/index.ts')
      process.exitCode = await tailCommand(rest)
      return
    }
    case 'push-keys': {
      if (rest.length > 0) fail(`push-keys takes no options\n${USAGE}`, 2)
      const { pushKeysText } = await import('./webpush/vapid.ts')
      process.stdout.write(pushKeysText())
      return
    }
    default:
      fail(`unknown command "${command}"\n${USAGE}`, 2)
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) fail(`${err.message}\n${USAGE}`, 2)
  // A bad keys file is a bad setting: named, no stack, exit code 2 like the other settings.
  if (err instanceof KeysFileError) fail(err.message, 2)
  // A setting the start found wrong (Redis unreachable, an address it cannot listen on): named, exit code 2.
  if (err instanceof ConfigError) fail(err.message, 2)
  process.stderr.write(`touchline: ${(err as Error).stack ?? String(err)}\n`)
  process.exit(1)
})
