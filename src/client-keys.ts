/**
 * Client keys (docs/passthrough.md, "Client keys and scope"): who may use the gateway, which leagues each key sees, its hourly quota per entity
 * and its connection limit. Loaded from TOUCHLINE_KEYS_FILE, or the single demo key `demo` when unset.
 * Keys are compared in constant time and never logged; a key is referred to by its `name`.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import { isMalformedToken } from '@touchline/upstream-contract/auth'
import { AppError, ErrorCodes } from './errors.ts'
import { TokenSettingsSchema } from './token-settings.ts'
import { checkWebhooks, WebhookSchema } from './webhook-settings.ts'

export const DEMO_KEY = 'demo'

const KeySchema = z.object({
  key: z.string().min(4).max(256).refine((k) => !isMalformedToken(k), 'must not contain spaces or quotes'),
  name: z.string().min(1).max(100),
  leagues: z.union([z.literal('*'), z.array(z.number().int().positive()).min(1)]).default('*'),
  hourly_quota: z.number().int().positive().default(3000),
  max_connections: z.number().int().positive().default(100),
  /** Browser origins allowed to use this key (CORS and the WebSocket upgrade); `*` for any. */
  allowed_origins: z.union([z.literal('*'), z.array(z.string().min(1))]).default('*'),
  /**
   * Paid upstream features the key may use through the passthrough (a 403 without them): expected goals
   * (`xg`), `odds`, `predictions`. Default: all of them (what the gateway's upstream token has).
   */
  features: z.array(z.enum(['xg', 'odds', 'predictions'])).default(['xg', 'odds', 'predictions']),
  /** Endpoints that receive this key's changes by HTTP POST (src/webhooks). */
  webhooks: z.array(WebhookSchema).max(50).optional(),
  /** Signed connection tokens its app's backend mints for its fans (src/tokens.ts, docs/tokens.md). */
  tokens: TokenSettingsSchema.optional()
}).strict().superRefine((k, ctx) => {
  checkWebhooks(k.webhooks ?? [], k, (path, message) => ctx.addIssue({ code: 'custom', path: ['webhooks', ...path], message }))
})

export const KeysFileSchema = z.array(KeySchema).min(1).superRefine((keys, ctx) => {
  const seen = new Set<string>()
  // Names identify keys in logs, metrics and revocation (a reload closes a removed name's connections).
  const names = new Set<string>()
  keys.forEach((k, i) => {
    if (seen.has(k.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `duplicate key (name "${k.name}")` })
    if (names.has(k.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate name "${k.name}"` })
    seen.add(k.key)
    names.add(k.name)
  })
})

export type ClientKey = z.infer<typeof KeySchema>

export class KeysFileError extends AppError {
  override name = 'KeysFileError'
  constructor (message: string) {
    super(ErrorCodes.KEYS_FILE, message)
  }
}

export interface KeyRing {
  /** The key record for a presented key, or undefined. Constant time in the key's content. */
  find: (presented: string | undefined) => ClientKey | undefined
  all: () => readonly ClientKey[]
  /** Swaps in a new key list (a reloaded keys file); returns the names of the keys that are gone. */
  replace: (keys: readonly ClientKey[]) => string[]
}

const digest = (key: string): Buffer => createHash('sha256').update(key).digest()

export function createKeyRing (initial: readonly ClientKey[]): KeyRing {
  // Hashing first gives equal-length buffers for timingSafeEqual, and every entry is compared, so the time
  // taken does not depend on which key (if any) matched.
  const index = (keys: readonly ClientKey[]) => keys.map((k) => ({ hash: digest(k.key), record: k }))
  let keys = initial
  let entries = index(keys)
  return {
    find (presented) {
      if (presented === undefined || presented === '') return undefined
      const hash = digest(presented)
      let found: ClientKey | undefined
      for (const e of entries) if (timingSafeEqual(e.hash, hash)) found = e.record
      return found
    },
    all: () => keys,
    replace (next) {
      const kept = new Set(next.map((k) => k.key))
      const removed = keys.filter((k) => !kept.has(k.key)).map((k) => k.name)
      keys = next
      entries = index(next)
      return removed
    }
  }
}

export const demoKeys = (): ClientKey[] => [KeySchema.parse({ key: DEMO_KEY, name: 'demo' })]

/** Reads and validates a keys file; errors name the file and the entry, never a key. */
export function loadKeysFile (path: string): ClientKey[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new KeysFileError(`TOUCHLINE_KEYS_FILE: cannot read ${path}: ${(err as Error).message}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    // V8's message quotes the text around the fault, which may be a key: only the position is kept.
    const at = /position (\d+)/.exec((err as Error).message)?.[1]
    throw new KeysFileError(`TOUCHLINE_KEYS_FILE: ${path} is not valid JSON${at === undefined ? '' : ` (at position ${at})`}`)
  }
  const parsed = KeysFileSchema.safeParse(json)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    throw new KeysFileError(`TOUCHLINE_KEYS_FILE: ${path} is invalid:\n  ${problems.join('\n  ')}`)
  }
  return parsed.data
}

export function leagueAllowed (key: ClientKey, leagueId: number): boolean {
  return key.leagues === '*' || key.leagues.includes(leagueId)
}

export function originAllowed (key: ClientKey, origin: string | undefined): boolean {
  if (origin === undefined || key.allowed_origins === '*') return true
  return key.allowed_origins.includes(origin)
}
