/**
 * Goal alerts by Web Push (docs/push.md): the bodies of `/v1/push/*` and the payload a browser's service
 * worker receives, as zod schemas. The OpenAPI document takes its schemas from here (src/wire-model/openapi.ts).
 *
 * The checks that need more than a shape (a `p256dh` that is a point of P-256, an endpoint on a public
 * address) are made by the push module (src/webpush/validate.ts); the schemas say what the fields are.
 */
import { z } from 'zod'

/** The alert kinds a subscription may ask for. `goal` brings "Goal disallowed" with it. */
export const PUSH_KINDS = ['goal', 'red_card', 'kick_off', 'half_time', 'full_time'] as const
export type PushKind = typeof PUSH_KINDS[number]
/** Every kind of alert a device may receive. */
export const ALERT_KINDS = ['goal', 'goal_disallowed', 'red_card', 'kick_off', 'half_time', 'full_time'] as const
export type AlertKind = typeof ALERT_KINDS[number]

/** Teams, fixtures and leagues a subscription follows, together at most this many. */
export const MAX_FOLLOWED = 100
/** Largest push payload, in bytes (the encrypted record then stays well under the 4 KB push services take). */
export const MAX_PAYLOAD_BYTES = 3072

const Id = z.number().int().positive()
const Ids = z.array(Id).max(MAX_FOLLOWED)
const B64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url')

export const PushKeyBody = z.strictObject({
  public_key: z.string().describe('The VAPID public key (uncompressed P-256 point, base64url): the `applicationServerKey` of `pushManager.subscribe`.')
}).meta({ id: 'PushKey' })

const BrowserSubscription = z.strictObject({
  endpoint: z.string().max(2048).describe('The push service URL the browser gave: https on a public address.'),
  expirationTime: z.number().nullable().optional().describe('As `PushSubscription.toJSON()` gives it; ignored.'),
  keys: z.strictObject({
    p256dh: B64url.describe('The browser\'s P-256 public key (65 bytes, base64url).'),
    auth: B64url.describe('The 16-byte authentication secret (base64url).')
  })
}).meta({ id: 'BrowserPushSubscription', description: 'The browser\'s `PushSubscription`, as `toJSON()` gives it.' })

export const PushFollow = z.strictObject({
  teams: Ids.default([]),
  fixtures: Ids.default([]),
  leagues: Ids.default([])
}).meta({ id: 'PushFollow', description: `What the device follows: an alert goes out when its fixture, its league or one of its teams is followed. At most ${MAX_FOLLOWED} ids in all.` })

export const PushSubscribeBody = z.strictObject({
  subscription: BrowserSubscription,
  follow: PushFollow,
  kinds: z.array(z.enum(PUSH_KINDS)).min(1).max(PUSH_KINDS.length * 2).optional()
    .describe('Alert kinds wanted; default all five. `goal` brings "Goal disallowed" too.'),
  muted: Ids.optional().describe('Fixtures that send nothing even when followed; default none.')
}).meta({ id: 'PushSubscribe', description: 'A device\'s subscription; the endpoint is its identity: posting again for the same endpoint replaces what it follows.' })
export type PushSubscribeInput = z.infer<typeof PushSubscribeBody>

export const PushSubscriptionView = z.strictObject({
  endpoint: z.string(),
  follow: z.strictObject({ teams: Ids, fixtures: Ids, leagues: Ids }),
  kinds: z.array(z.enum(PUSH_KINDS)),
  muted: Ids,
  created_at: z.iso.datetime({ offset: true })
}).meta({ id: 'PushSubscription', description: 'A stored subscription: what the device follows.' })
export type PushSubscriptionViewBody = z.infer<typeof PushSubscriptionView>

export const PushPayloadSchema = z.strictObject({
  id: z.string().describe('The alert id: one per upstream change (fixture, event, kind); a device gets each at most once.'),
  kind: z.enum(ALERT_KINDS),
  title: z.string().meta({ examples: ['GOAL! Celtic 2-1 Rangers'] }),
  body: z.string().meta({ examples: ['67\' Furuhashi'] }),
  fixture_id: Id,
  url: z.string().describe('Gateway-relative URL that opens the match on the scoreboard.'),
  tag: z.string().describe('The `Topic` header: per fixture and kind family (a goal and its "Goal disallowed" share one); use it as the notification tag.'),
  sent_at: z.iso.datetime({ offset: true })
}).meta({ id: 'PushPayload', description: `What the service worker receives (JSON, at most ${MAX_PAYLOAD_BYTES} bytes).` })
export type PushPayload = z.infer<typeof PushPayloadSchema>
