/**
 * A client key's connection tokens, as the keys file sets them (docs/tokens.md): the secrets (HS256) or
 * public keys (ES256, RS256; PEM) the app's backend signs its fans' tokens with, two of each at most so a
 * rotation can overlap, the longest lifetime a token may claim, the time before which tokens are refused
 * (every token issued before it is revoked), and how many connections one fan may hold.
 */
import { z } from 'zod'

export const TokenSettingsSchema = z.object({
  /** HMAC secrets (HS256), 32 characters at least; two during a rotation. */
  secrets: z.array(z.string().min(32, 'a token secret has 32 characters at least')).min(1).max(2).optional(),
  /** Public keys (PEM, `-----BEGIN PUBLIC KEY-----`) of EC P-256 (ES256) or RSA (RS256) pairs; two during a rotation. */
  public_keys: z.array(z.string().includes('-----BEGIN PUBLIC KEY-----', { message: 'a public key in PEM (-----BEGIN PUBLIC KEY-----)' })).min(1).max(2).optional(),
  /** The longest a token may live, from its `iat` (or `nbf`) to its `exp`, seconds. */
  max_lifetime_s: z.number().int().positive().max(7 * 86_400).default(3600),
  /** Tokens issued before this time are refused (revoked). */
  not_before: z.iso.datetime({ offset: true }).optional(),
  /** Connections one fan (a token's `sub`) may hold at once on this key. */
  max_connections_per_fan: z.number().int().positive().max(1000).default(5),
  /** Web Push devices one fan may register with a token on this key (docs/push.md); more are refused (429). */
  max_devices_per_fan: z.number().int().positive().max(1000).default(5),
  /**
   * Seconds an open connection may outlive its token's `exp` while it refreshes it (the WebSocket's `auth`
   * operation); closed with 4401 after that.
   */
  expiry_grace_s: z.number().int().min(0).max(300).default(10)
}).strict().refine((t) => t.secrets !== undefined || t.public_keys !== undefined, { message: 'tokens need secrets or public_keys' })

export type TokenSettings = z.infer<typeof TokenSettingsSchema>
