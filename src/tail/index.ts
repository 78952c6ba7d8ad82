/**
 * `touchline tail [--league ID] [--fixture ID] [--team ID] [--kinds K,...] [--since CURSOR] [--json] [--url URL] [--key KEY]`: the
 * command-line entry of the terminal client (client.ts). Settings are flags only: tail is a client of a
 * gateway, not part of one, so the gateway's TOUCHLINE_* variables do not apply to it.
 */
import { parseArgs } from 'node:util'
import { CHANGE_KINDS, ODDS_KINDS, type SubscribedKind } from '../wire-model/model.ts'
import { runTail } from './client.ts'

const badValue = (message: string): TypeError => Object.assign(new TypeError(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' })

/** `--league 271 --league 501` or `--league 271,501` */
function ids (values: string[] | undefined, flag: string): number[] {
  const out = (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '').map(Number)
  const bad = out.find((n) => !Number.isSafeInteger(n) || n <= 0)
  if (bad !== undefined) throw badValue(`--${flag} expects positive integer ids`)
  return out
}

/** `--kinds score_changed,odds_changed` (or the flag repeated): undefined when not given. An odds kind takes odds. */
function kindsOf (values: string[] | undefined): SubscribedKind[] | undefined {
  if (values === undefined) return undefined
  const out = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')
  const kinds: readonly string[] = [...CHANGE_KINDS, ...ODDS_KINDS]
  const bad = out.find((k) => !kinds.includes(k))
  if (bad !== undefined || out.length === 0) throw badValue(`--kinds expects change kinds among ${kinds.join(', ')}${bad === undefined ? '' : `, got "${bad}"`}`)
  return [...new Set(out)] as SubscribedKind[]
}

/** Runs the command; resolves with the exit code (0 after Ctrl-C, 1 when the gateway refuses for good). */
export async function tailCommand (args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      league: { type: 'string', multiple: true },
      fixture: { type: 'string', multiple: true },
      team: { type: 'string', multiple: true },
      kinds: { type: 'string', multiple: true },
      since: { type: 'string' },
      json: { type: 'boolean', default: false },
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      key: { type: 'string', default: 'demo' }
    },
    strict: true
  })
  let url: URL
  try {
    url = new URL(values.url)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)')
  } catch {
    throw badValue(`--url expects the gateway's http(s) URL, got "${values.url}"`)
  }
  const abort = new AbortController()
  const stop = (): void => abort.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // `touchline tail | head`: a closed pipe ends the tail quietly.
  const onPipeError = (err: NodeJS.ErrnoException): void => { if (err.code === 'EPIPE') stop(); else throw err }
  process.stdout.on('error', onPipeError)
  try {
    return await runTail({
      url: url.origin + url.pathname.replace(/\/+$/, ''),
      key: values.key,
      leagues: ids(values.league, 'league'),
      fixtures: ids(values.fixture, 'fixture'),
      teams: ids(values.team, 'team'),
      ...(values.kinds !== undefined ? { kinds: kindsOf(values.kinds) } : {}),
      ...(values.since !== undefined ? { since: values.since } : {}),
      json: values.json,
      color: process.stdout.isTTY && process.env.NO_COLOR === undefined,
      out: (line) => { if (!abort.signal.aborted) process.stdout.write(line + '\n') },
      err: (line) => { process.stderr.write(line + '\n') },
      signal: abort.signal
    })
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    process.stdout.off('error', onPipeError)
  }
}
