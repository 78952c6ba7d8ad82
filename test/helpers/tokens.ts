/**
 * Signed connection tokens as an app's backend mints them (docs/tokens.md, "Minting one in Node, with
 * jose"): HS256, issued now (or, `expired`, two minutes ago with an `exp` a minute past), for the tests of
 * every transport that takes them.
 */
import { SignJWT } from 'jose'

export interface Mint {
  /** The key's `name` in the keys file. */
  iss: string
  /** One of the key's `tokens.secrets` (or another, to be refused). */
  secret: string
  /** The fan. */
  sub: string
  /** touchline's claims (`leagues`, `fixtures`, `push`...). */
  claims?: Record<string, unknown>
  /** Seconds from now to `exp` (negative: already expired). @default 600 */
  ttlS?: number
  /** Issued two minutes ago, expired a minute ago. */
  expired?: boolean
}

export async function mintToken (m: Mint): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return await new SignJWT(m.claims ?? {}).setProtectedHeader({ alg: 'HS256' }).setIssuer(m.iss).setSubject(m.sub)
    .setIssuedAt(m.expired === true ? now - 120 : now).setExpirationTime(m.expired === true ? now - 60 : now + (m.ttlS ?? 600))
    .sign(new TextEncoder().encode(m.secret))
}
