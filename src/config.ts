/**
 * Settings: the TOUCHLINE_* environment variables (docs/settings.md), validated once at start.
 * An invalid value or an unknown TOUCHLINE_* variable (a typo) stops the start with the variable named.
 */
import { createECDH, createPublicKey } from 'node:crypto'
import { accessSync, constants, statSync } from 'node:fs'
import { isIP } from 'node:net'
import { z } from 'zod'
import { isMalformedToken } from '@touchline/upstream-contract/auth'
import { AppError, ErrorCodes } from './errors.ts'
import { parseRedisUrl } from './util/redis-url.ts'

const port = z.coerce.number().int().min(0).max(65535)

/**
 * An IP address, or a CIDR with a prefix of 1 to 32 (IPv4) or 128 (IPv6): what fastify's proxy library
 * compiles. Checked here because that library throws a bare TypeError from inside the app's construction,
 * after the settings were taken as valid; it also refuses a /0 prefix.
 */
function isAddressOrCidr (entry: string): boolean {
  const slash = entry.indexOf('/')
  const address = slash < 0 ? entry : entry.slice(0, slash)
  const family = isIP(address)
  if (family === 0) return false
  if (slash < 0) return true
  const prefix = entry.slice(slash + 1)
  return /^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128)
}
const url = z.url({ protocol: /^https?$/ })

/**
 * The upstream's base URL: every path the gateway asks for is `/football/...` or `/my/...` under it, and the
 * API's version is part of it (`https://api.sportmonks.com/v3`). A base without `/v3` answers 404 to every
 * call; a query or a fragment would be dropped from every request without a word.
 */
const upstreamUrl = url.superRefine((v, ctx) => {
  // Refinements run even when the URL check above failed: that one says so already.
  if (!URL.canParse(v)) return
  const u = new URL(v)
  if (!/\/v3\/*$/.test(u.pathname)) ctx.addIssue({ code: 'custom', message: `must include the API's version, /v3, at the end of its path (e.g. https://api.sportmonks.com/v3), not "${u.pathname}"` })
  if (u.search !== '' || u.hash !== '') ctx.addIssue({ code: 'custom', message: 'must not have a query or a fragment (the token is TOUCHLINE_UPSTREAM_TOKEN)' })
})

/**
 * Characters a Redis key prefix must not hold: braces would make it a hash tag (the store's keys put one
 * around each fixture, `{fixture:<id>}`, so that one script touches one slot; a second one before it wins
 * and breaks them), and `*?[]\` are glob characters in the SCAN patterns that list a prefix's keys.
 */
const REDIS_PREFIX_FORBIDDEN = /[{}*?[\]\\]/

/**
 * TOUCHLINE_RECORD_DIR: an existing directory this process can write to. The recorder writes in the
 * background and only logs a failure (it never gets in a poll's way), so a wrong path would otherwise
 * record nothing with one warning line an hour; it is checked here instead, before anything starts.
 */
function recordDirProblem (dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a directory`
    accessSync(dir, constants.W_OK | constants.X_OK)
    return undefined
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return `${dir} does not exist (create it first)`
    return `${dir} cannot be written (${code ?? (err as Error).message})`
  }
}

/** Why several workers refuse the memory store (TOUCHLINE_WORKERS here, `--workers` in src/cluster.ts). */
export const WORKERS_NEED_REDIS = 'needs TOUCHLINE_REDIS_URL: the workers are processes of their own, and only a shared Redis ' +
  'gives them one event log, one poller and cursors that resume on any of them, a restarted one included (with ' +
  'the memory store each would poll the upstream and hand out cursors the others do not know)'

/** The most processes `--workers` (TOUCHLINE_WORKERS) starts. */
export const MAX_WORKERS = 256

/**
 * `--workers` and TOUCHLINE_WORKERS (src/cluster.ts): how many gateway processes share the port, a whole
 * number or `auto` (one per core). Returns the problem as a message when the value is neither.
 */
export function parseWorkers (value: string): number | 'auto' | { problem: string } {
  const v = value.trim()
  if (v === 'auto') return 'auto'
  if (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_WORKERS) return Number(v)
  return { problem: `must be auto (one per core) or a whole number from 1 to ${MAX_WORKERS}, not "${value}"` }
}

/** The bytes of a base64url text, or undefined when it is not one. */
function b64urlBytes (text: string): Buffer | undefined {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(text) ? Buffer.from(text.replace(/=+$/, ''), 'base64url') : undefined
}

/** A VAPID public key's 65 bytes when they are an uncompressed point of P-256. */
function vapidPublicKey (text: string): Buffer | undefined {
  const raw = b64urlBytes(text)
  if (raw?.length !== 65 || raw[0] !== 4) return undefined
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' })
    return raw
  } catch {
    return undefined
  }
}

/** Whether the private key's public half is `pub`. */
function vapidPairMatches (pub: string, priv: string): boolean {
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(b64urlBytes(priv) as Buffer)
    return ecdh.getPublicKey().equals(b64urlBytes(pub) as Buffer)
  } catch {
    return false
  }
}

const ConfigSchema = z.object({
  TOUCHLINE_HOST: z.string().min(1).default('0.0.0.0'),
  TOUCHLINE_PORT: port.default(8080),
  /** Base URL including `/v3`; unset starts the embedded provider. */
  TOUCHLINE_UPSTREAM_URL: upstreamUrl.optional(),
  /** Upstream `api_token`; never logged, never sent to clients. */
  TOUCHLINE_UPSTREAM_TOKEN: z.string().min(1).refine((t) => !isMalformedToken(t), 'must not contain spaces or quotes').optional(),
  TOUCHLINE_PROVIDER_PORT: port.default(8081),
  /** Match seconds per real second in the embedded provider's simulator. */
  TOUCHLINE_SIM_SPEED: z.coerce.number().positive().max(3600).default(60),
  /** Seed of the embedded provider's dataset and simulator. */
  TOUCHLINE_SEED: z.coerce.number().int().nonnegative().default(1),
  /** One Redis (`redis://`, `rediss://`) or a Sentinel-watched primary (`redis+sentinel://`): util/redis-url.ts. */
  TOUCHLINE_REDIS_URL: z.string().superRefine((v, ctx) => {
    try {
      parseRedisUrl(v)
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message })
    }
  }).optional(),
  /** PEM file of the certificate authorities to trust for TLS to Redis (rediss://), besides the system's. */
  TOUCHLINE_REDIS_CA: z.string().min(1).optional(),
  TOUCHLINE_REDIS_PREFIX: z.string().min(1).max(64).refine((p) => !REDIS_PREFIX_FORBIDDEN.test(p), 'must not contain braces or any of *?[]\\ (braces would make it a Redis hash tag, the others are glob characters)').default('tl:'),
  TOUCHLINE_KEYS_FILE: z.string().min(1).optional(),
  TOUCHLINE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Share of the Fixture budget kept for the REST passthrough (0..0.9). */
  TOUCHLINE_POLL_RESERVE: z.coerce.number().min(0).max(0.9).default(0.2),
  /** Shortest pause between two polls of livescores/latest. */
  TOUCHLINE_POLL_FLOOR_MS: z.coerce.number().int().min(100).max(10_000).default(1000),
  /** Full reconciliation with /livescores at least this often. */
  TOUCHLINE_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** The days around today (UTC) the poller reads into the store and `/v1/fixtures` answers: before, after. */
  TOUCHLINE_DAYS_BACK: z.coerce.number().int().min(0).max(7).default(3),
  TOUCHLINE_DAYS_AHEAD: z.coerce.number().int().min(0).max(7).default(3),
  /** Base of every link the gateway returns (`next_page`, `next_cursor`); unset: the listener's URL. Never the Host header. */
  TOUCHLINE_PUBLIC_URL: url.transform((u) => u.replace(/\/+$/, '')).optional(),
  /**
   * Proxies whose `X-Forwarded-*` headers are trusted: `true`, a hop count, or a comma-separated list of
   * addresses/CIDRs (fastify's `trustProxy`). Unset: none, the socket's address is the client's.
   */
  TOUCHLINE_TRUST_PROXY: z.string().min(1).transform((v, ctx): boolean | number | string[] => {
    if (v === 'true') return true
    if (v === 'false') return false
    if (/^\d+$/.test(v)) return Number(v)
    const list = v.split(',').map((s) => s.trim()).filter((s) => s !== '')
    const bad = list.filter((s) => !isAddressOrCidr(s))
    if (list.length === 0 || bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be true, false, a hop count or a comma-separated list of IP addresses or CIDRs${bad.length > 0 ? ` (not one: ${bad.join(', ')})` : ''}` })
      return z.NEVER
    }
    return list
  }).optional(),
  /**
   * Match seconds per real second of the upstream's clock when it is not the embedded provider: 1 for the
   * real API; the `--speed` of a `touchline provider` run apart. The gateway runs the clients' match clock
   * at this rate, so at the right one no poll sends a tick their clocks show anyway.
   */
  TOUCHLINE_UPSTREAM_CLOCK_RATE: z.coerce.number().positive().max(3600).default(1),
  /** The upstream plan's hourly limit per entity, for an upstream whose `rate_limit` gives no total; unset: learned. */
  TOUCHLINE_UPSTREAM_HOURLY_LIMIT: z.coerce.number().int().min(1).max(1_000_000).optional(),
  /**
   * League ids the scoreboard (`/`) lists first, most important first, comma-separated (`8,2,564`); the
   * others follow by the upstream's own rank of a league (`category`), then country and name.
   */
  TOUCHLINE_LEAGUE_PRIORITY: z.string().transform((v, ctx): number[] => {
    const ids = v.split(',').map((s) => s.trim())
    if (ids.some((id) => !/^[1-9]\d{0,9}$/.test(id))) {
      ctx.addIssue({ code: 'custom', message: 'must be league ids separated by commas, e.g. 8,2,564' })
      return z.NEVER
    }
    return [...new Set(ids.map(Number))]
  }).optional(),
  /** Directory where the poller records every upstream response it receives (NDJSON, hourly files). */
  TOUCHLINE_RECORD_DIR: z.string().min(1).superRefine((dir, ctx) => {
    const problem = recordDirProblem(dir)
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem })
  }).optional(),
  /** Webhooks (src/webhooks): longest wait for a receiver's answer (connect, headers, body) per attempt. */
  TOUCHLINE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Changes per webhook request at most. */
  TOUCHLINE_WEBHOOK_BATCH: z.coerce.number().int().min(1).max(1000).default(100),
  /** First retry delay of a failed delivery; doubled per attempt, with jitter, up to the max. */
  TOUCHLINE_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  TOUCHLINE_WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  /** An endpoint failing this long without a success is paused until resumed or the keys are reloaded. */
  TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS: z.coerce.number().int().min(1000).max(7 * 24 * 3600_000).default(3600_000),
  /** Over Redis, the lease that makes one instance deliver to each endpoint; a dead holder's endpoints move within it. */
  TOUCHLINE_WEBHOOK_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** Web Push (src/webpush, docs/push.md): the VAPID key pair, base64url, as `touchline push-keys` prints it. Unset: no push. */
  TOUCHLINE_VAPID_PUBLIC_KEY: z.string().refine((k) => vapidPublicKey(k) !== undefined, 'must be an uncompressed P-256 public key, base64url (65 bytes)').optional(),
  TOUCHLINE_VAPID_PRIVATE_KEY: z.string().refine((k) => b64urlBytes(k)?.length === 32, 'must be a P-256 private key, base64url (32 bytes)').optional(),
  /** Who runs this gateway, for the push services (`mailto:` or an `https:` URL): required with the keys. */
  TOUCHLINE_VAPID_SUBJECT: z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: address or an https: URL').optional(),
  /** Tests only: push endpoints on the loopback (http://127.0.0.1:...) are let through. */
  TOUCHLINE_PUSH_ALLOW_LOCAL: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').default(false),
  /** Push subscriptions one client key may hold. */
  TOUCHLINE_PUSH_MAX_PER_KEY: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** Shards of the subscriptions: over Redis one instance sends each shard's alerts (a lease per shard). */
  TOUCHLINE_PUSH_SHARDS: z.coerce.number().int().min(1).max(1024).default(8),
  /** Push requests in flight at once per instance. */
  TOUCHLINE_PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /** Worker threads that encrypt push payloads (0: the event loop); unset, every core but one, at most 4. */
  TOUCHLINE_PUSH_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** Alerts one device receives per hour at most; the least important kinds stop first. */
  TOUCHLINE_PUSH_HOURLY_CAP: z.coerce.number().int().min(1).max(10_000).default(30),
  /** Longest wait for a push service's answer per request. */
  TOUCHLINE_PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Over Redis, the lease of a shard's sender; a dead holder's shards move within it. */
  TOUCHLINE_PUSH_LEASE_TTL_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /**
   * Shutdown (docs/operations.md, "Graceful shutdown"): from the signal, how long the gateway keeps serving
   * everything while `/readyz` answers 503 `draining`, so that a load balancer's health checks take it out of
   * rotation before its sockets close with 1001. 0: no drain (nothing in front of it to tell).
   */
  TOUCHLINE_DRAIN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** After the drain delay, how long the shutdown may take before the process exits 1 anyway. */
  TOUCHLINE_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  /**
   * `touchline serve` as this many processes on one port (src/cluster.ts), or `auto`: one per core. Unset:
   * one process. `--workers` overrides it. Needs TOUCHLINE_REDIS_URL (checked below).
   */
  TOUCHLINE_WORKERS: z.string().transform((v, ctx): number | 'auto' => {
    const parsed = parseWorkers(v)
    if (typeof parsed === 'object') {
      ctx.addIssue({ code: 'custom', message: parsed.problem })
      return z.NEVER
    }
    return parsed
  }).optional()
}).refine((c) => c.TOUCHLINE_WORKERS === undefined || c.TOUCHLINE_REDIS_URL !== undefined, {
  path: ['TOUCHLINE_WORKERS'], message: WORKERS_NEED_REDIS
}).refine((c) => c.TOUCHLINE_WEBHOOK_RETRY_MAX_MS >= c.TOUCHLINE_WEBHOOK_RETRY_BASE_MS, {
  path: ['TOUCHLINE_WEBHOOK_RETRY_MAX_MS'], message: 'must not be below TOUCHLINE_WEBHOOK_RETRY_BASE_MS'
}).superRefine((c, ctx) => {
  const pub = c.TOUCHLINE_VAPID_PUBLIC_KEY
  const priv = c.TOUCHLINE_VAPID_PRIVATE_KEY
  if ((pub === undefined) !== (priv === undefined)) {
    const missing = pub === undefined ? 'TOUCHLINE_VAPID_PUBLIC_KEY' : 'TOUCHLINE_VAPID_PRIVATE_KEY'
    ctx.addIssue({ code: 'custom', path: [missing], message: 'set both VAPID keys, or neither (touchline push-keys prints a pair)' })
    return
  }
  if (pub === undefined || priv === undefined) return
  if (!vapidPairMatches(pub, priv)) ctx.addIssue({ code: 'custom', path: ['TOUCHLINE_VAPID_PRIVATE_KEY'], message: 'is not the private key of TOUCHLINE_VAPID_PUBLIC_KEY' })
  if (c.TOUCHLINE_VAPID_SUBJECT === undefined) ctx.addIssue({ code: 'custom', path: ['TOUCHLINE_VAPID_SUBJECT'], message: 'required with the VAPID keys: a mailto: address or an https: URL where push services can reach you' })
})

export type Config = z.infer<typeof ConfigSchema>

export class ConfigError extends AppError {
  override name = 'ConfigError'
  constructor (message: string, readonly variables: string[]) {
    super(ErrorCodes.CONFIG, message)
  }
}

const KNOWN = new Set(Object.keys(ConfigSchema.shape))

/**
 * Reads the TOUCHLINE_* variables of `env`. Empty strings count as unset, so `TOUCHLINE_X= cmd` resets a value;
 * a value of only spaces is refused.
 * @throws ConfigError naming every invalid or unknown variable
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {}
  const unknown: string[] = []
  const blank: string[] = []
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('TOUCHLINE_') || value === undefined || value === '') continue
    if (!KNOWN.has(name)) unknown.push(name)
    // Spaces are not "unset" and not a value either: a number would read them as 0 (a random port, no reserve).
    else if (value.trim() === '') blank.push(name)
    else input[name] = value
  }
  const problems: string[] = [
    ...unknown.map((name) => `${name}: unknown setting (known: ${[...KNOWN].join(', ')})`),
    ...blank.map((name) => `${name}: only spaces (leave it empty or unset it for the default)`)
  ]
  const parsed = ConfigSchema.safeParse(input)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`)
  }
  if (problems.length > 0 || !parsed.success) {
    const names = problems.map((p) => p.slice(0, p.indexOf(':')))
    throw new ConfigError(`invalid settings:\n  ${problems.join('\n  ')}`, names)
  }
  return parsed.data
}
