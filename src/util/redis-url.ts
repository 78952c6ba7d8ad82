/**
 * TOUCHLINE_REDIS_URL, the forms it takes (docs/settings.md, "Redis URL"), and the ioredis options each
 * maps to:
 *
 * - `redis://[[user]:password@]host[:port][/db]`: one Redis, over TCP;
 * - `rediss://...`: the same over TLS;
 * - `redis+sentinel://[[user]:password@]host1[:port1],host2[:port2],.../<master name>[/db][?options]`: a
 *   primary with replicas watched by Sentinel. The hosts are the sentinels (port 26379 when left out), the
 *   path names the master group; the user and password are the primary's and the replicas' (ACL user
 *   `default` when only a password is given). Options: `sentinel_username` and `sentinel_password` (the
 *   sentinels' own, when they ask for one);
 * - `rediss+sentinel://...`: the same with TLS to the sentinels and to the data nodes.
 *
 * ioredis does the rest itself (its `sentinels` and `name` options): it asks the sentinels for the primary,
 * connects there and checks its role; util/redis-failover.ts drops the connections when a sentinel
 * announces a new primary (`+switch-master`), so that none stays on a primary that hangs.
 */
import type { RedisOptions } from 'ioredis'

export interface SentinelAddress { host: string, port: number }

export type RedisTarget =
  | { kind: 'direct', url: string, tls: boolean }
  | {
    kind: 'sentinel'
    sentinels: SentinelAddress[]
    name: string
    tls: boolean
    username?: string
    password?: string
    sentinelUsername?: string
    sentinelPassword?: string
    db?: number
  }

const DEFAULT_SENTINEL_PORT = 26379
const SENTINEL = /^(rediss?)\+sentinel:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^/?#]+)(?:\/(\d+))?\/?(?:\?([^#]*))?$/
const SENTINEL_OPTIONS = new Set(['sentinel_username', 'sentinel_password'])

/** Parses a TOUCHLINE_REDIS_URL; throws an Error whose message says what is wrong (never the password). */
export function parseRedisUrl (text: string): RedisTarget {
  if (/^rediss?:\/\//i.test(text)) {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      throw new Error('must be a valid redis:// or rediss:// URL')
    }
    if (url.hostname === '') throw new Error('names no host')
    return { kind: 'direct', url: text, tls: url.protocol === 'rediss:' }
  }
  const m = SENTINEL.exec(text)
  if (m === null) {
    throw new Error('must be redis://host:port, rediss://user:password@host:port, or redis+sentinel://[user:password@]host1:port1,host2:port2/<master name>')
  }
  const [, scheme, auth, hosts, name, db, query] = m as unknown as [string, string, string | undefined, string, string, string | undefined, string | undefined]
  const target: Extract<RedisTarget, { kind: 'sentinel' }> = {
    kind: 'sentinel', sentinels: hosts.split(',').map(sentinelAddress), name: decode(name), tls: scheme === 'rediss'
  }
  if (auth !== undefined) Object.assign(target, credentials(auth))
  if (db !== undefined) target.db = Number(db)
  for (const [key, value] of new URLSearchParams(query ?? '')) {
    if (!SENTINEL_OPTIONS.has(key)) throw new Error(`unknown option ${key} (known: ${[...SENTINEL_OPTIONS].join(', ')})`)
    if (key === 'sentinel_username') target.sentinelUsername = value
    else target.sentinelPassword = value
  }
  return target
}

function decode (part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    throw new Error('has a malformed %-escape')
  }
}

function sentinelAddress (entry: string): SentinelAddress {
  // [::1]:26379, host:26379, or a host alone.
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry.trim())
  const port = m?.[2] === undefined ? DEFAULT_SENTINEL_PORT : Number(m[2])
  if (m === null || port < 1 || port > 65535) throw new Error(`sentinel address "${entry}" is not host[:port]`)
  return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port }
}

function credentials (auth: string): { username?: string, password?: string } {
  const colon = auth.indexOf(':')
  const user = decode(colon < 0 ? auth : auth.slice(0, colon))
  const password = colon < 0 ? undefined : decode(auth.slice(colon + 1))
  return { ...(user !== '' ? { username: user } : {}), ...(password !== undefined && password !== '' ? { password } : {}) }
}

/**
 * The URL fit for a message or a log line: passwords masked, the sentinel password option included.
 * Never throws (a URL that does not parse is shown as its scheme only).
 */
export function redactRedisUrl (text: string): string {
  let target: RedisTarget
  try {
    target = parseRedisUrl(text)
  } catch {
    return `${text.split('://')[0] ?? 'redis'}://***`
  }
  if (target.kind === 'direct') {
    const u = new URL(target.url)
    if (u.password !== '') u.password = '***'
    return u.toString()
  }
  const auth = target.username === undefined && target.password === undefined ? '' : `${target.username ?? ''}${target.password === undefined ? '' : ':***'}@`
  const query = [
    ...(target.sentinelUsername === undefined ? [] : [`sentinel_username=${encodeURIComponent(target.sentinelUsername)}`]),
    ...(target.sentinelPassword === undefined ? [] : ['sentinel_password=***'])
  ].join('&')
  const hosts = target.sentinels.map((s) => `${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`).join(',')
  return `${target.tls ? 'rediss' : 'redis'}+sentinel://${auth}${hosts}/${encodeURIComponent(target.name)}${target.db === undefined ? '' : `/${target.db}`}${query === '' ? '' : `?${query}`}`
}

/**
 * ioredis options for a target, on top of `base` (timeouts, queueing). `ca`: PEM certificates to trust
 * for TLS (TOUCHLINE_REDIS_CA) besides the system's; unset: the system's (and NODE_EXTRA_CA_CERTS).
 * A direct target keeps its URL: pass it to `new Redis(url, options)`.
 */
export function redisOptions (target: RedisTarget, base: RedisOptions, ca?: string): { url?: string, options: RedisOptions } {
  const tls = target.tls ? { tls: ca === undefined ? {} : { ca } } : {}
  if (target.kind === 'direct') return { url: target.url, options: { ...base, ...tls } }
  const options: RedisOptions = {
    ...base,
    ...tls,
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.sentinelUsername === undefined ? {} : { sentinelUsername: target.sentinelUsername }),
    ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
    ...(target.db === undefined ? {} : { db: target.db }),
    ...(target.tls ? { enableTLSForSentinelMode: true, sentinelTLS: ca === undefined ? {} : { ca } } : {})
  }
  return { options }
}
