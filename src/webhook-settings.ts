/**
 * Webhook endpoints in the keys file (docs/webhooks.md): `webhooks: [{id, url, secret, leagues|fixtures|teams, kinds,
 * format}]` per client key. Filters and formats mean what they mean for a subscription (docs/protocol.md); the key's
 * scope applies on top. Parsed here so client-keys.ts stays about keys; the secret is never logged (logger.ts
 * redacts `secret`) and never returned by `GET /v1/webhooks`.
 */
import { z } from 'zod'
import { CHANGE_KINDS, DELTA_WITH_KINDS, FORMATS, ODDS_KINDS, STANDINGS_KINDS } from './wire-model/model.ts'
import { namesOdds, narrowsTake, takeOf } from './wire-model/take.ts'

const Ids = z.array(z.number().int().positive()).max(1000)

export const WebhookSchema = z.strictObject({
  /** Names the endpoint in URLs (`/v1/webhooks/{id}/resume`), headers, metrics and Redis keys. */
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only (1 to 64)'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** HMAC key of the signatures; long enough that guessing it is hopeless. */
  secret: z.string().min(16, 'at least 16 characters').max(512),
  /** Ids, or `*` (default): every league the key may see, including ones that appear later. */
  leagues: z.union([z.literal('*'), Ids]).optional(),
  fixtures: Ids.optional(),
  teams: Ids.optional(),
  kinds: z.array(z.enum([...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS])).min(1).optional(),
  /** The fixtures' odds too (odds kinds, or `odds`, `bookmakers`, `markets`): the key needs the odds feature. */
  odds: z.boolean().optional(),
  bookmakers: Ids.optional(),
  markets: Ids.optional(),
  /** The leagues' live tables too (`standings` frames of the leagues it follows; or `standings_changed` in kinds). */
  standings: z.boolean().optional(),
  format: z.enum(FORMATS).default('full')
}).refine((w) => w.format !== 'delta' || !narrowsTake(takeOf(w)), { path: ['format'], message: DELTA_WITH_KINDS })

export type WebhookConfig = z.infer<typeof WebhookSchema>

/** Endpoint ids are unique within a key; leagues a webhook names must be the key's, and its odds the key's features. */
export function checkWebhooks (
  hooks: readonly WebhookConfig[], key: { leagues: '*' | readonly number[], features: readonly string[] }, issue: (path: Array<string | number>, message: string) => void
): void {
  const keyLeagues = key.leagues
  const ids = new Set<string>()
  hooks.forEach((w, i) => {
    if (ids.has(w.id)) issue([i, 'id'], `duplicate webhook id "${w.id}"`)
    ids.add(w.id)
    if (namesOdds(w) && !key.features.includes('odds')) issue([i, 'odds'], 'this key has no odds feature')
    if (keyLeagues !== '*' && Array.isArray(w.leagues)) {
      const outside = w.leagues.filter((id) => !keyLeagues.includes(id))
      if (outside.length > 0) issue([i, 'leagues'], `leagues outside this key's scope: ${outside.join(',')}`)
    }
  })
}
