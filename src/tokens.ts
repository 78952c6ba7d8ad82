/**
 * Signed connection tokens (docs/tokens.md): a public page connects as one fan, for a limited time, with a
 * token its app's backend signed, never with the key itself. A token is a JWT whose `iss` names the key
 * (its `name` in the keys file) and which that key's token settings (token-settings.ts) verify: HS256 with
 * one of its secrets, or ES256 / RS256 with one of its public keys. The algorithm a token may use follows from
 * what the key holds, never from the token alone: an HS256 token is checked against secrets only, so a
 * token signed with a key's public key as an HMAC secret is refused; `alg: none` and every other algorithm
 * too. The verification is jose's.
 *
 * Claims: `sub` (the fan) and `exp` are required, `iat` and `nbf` honoured (5 s of clock skew allowed); the
 * token's lifetime is at most the key's `max_lifetime_s`; a token issued before the key's `not_before` is
 * revoked. touchline's claims narrow what the key may do, never widen it: `leagues` (ids, each one the key
 * covers) and `features` (of the key's). A token claiming more than its key is refused, not trimmed.
 */
import { decodeJwt, decodeProtectedHeader, errors, importSPKI, jwtVerify, type JWTPayload } from 'jose'
import { createHash, webcrypto } from 'node:crypto'
import { z } from 'zod'
import type { ClientKey, KeyRing } from './client-keys.ts'
import type { TokenSettings } from './token-settings.ts'
import { CHANGE_KINDS } from './wire-model/model.ts'
import { ODDS_KINDS } from './wire-model/odds.ts'
import { STANDINGS_KINDS } from './wire-model/standings.ts'

/** Clock skew allowed on `exp`, `nbf` and `iat`, seconds. */
const SKEW_S = 5
/** The longest `sub` kept: it names the fan in logs and in the per-fan connection count. */
const MAX_SUB = 128

/** Why a token was refused; said to the client in these words, and in no more detail. */
export type TokenRefusal = 'expired' | 'not_yet_valid' | 'invalid' | 'revoked' | 'too_long' | 'wider_than_key'

export class TokenError extends Error {
  override name = 'TokenError'
  /** The name of the key the token named, once it was found (for metrics by key). */
  key: string | undefined
  constructor (readonly reason: TokenRefusal, message: string) {
    super(message)
  }
}

/** The metric label of a check: the key's name (or `-`) and the outcome. Known keys only, so no label comes from a token's say. */
export function checkLabels (outcome: TokenGrant | unknown): { key: string, outcome: string } {
  if (outcome instanceof TokenError) return { key: outcome.key ?? '-', outcome: outcome.reason }
  const grant = outcome as TokenGrant | undefined
  return grant?.key !== undefined ? { key: grant.key.name, outcome: 'accepted' } : { key: '-', outcome: 'invalid' }
}

/** A fan admitted by a token: the key as the token narrows it, who the fan is, and until when. */
export interface TokenGrant {
  key: ClientKey
  /** The token's `sub`. */
  fan: string
  /** The token's `exp`, epoch ms. */
  expiresAt: number
  /** The token's `iat`, epoch ms, when it has one. */
  issuedAt: number | undefined
}

/** The most fixtures or teams a token may name (a connection follows at most 100 of all kinds). */
const MAX_FOLLOWED = 100

const ClaimsSchema = z.object({
  sub: z.string().min(1).max(MAX_SUB),
  exp: z.number(),
  iat: z.number().optional(),
  nbf: z.number().optional(),
  leagues: z.array(z.number().int().positive()).min(1).optional(),
  features: z.array(z.enum(['xg', 'odds', 'predictions'])).optional(),
  fixtures: z.array(z.number().int().positive()).min(1).max(MAX_FOLLOWED).optional(),
  teams: z.array(z.number().int().positive()).min(1).max(MAX_FOLLOWED).optional(),
  kinds: z.array(z.enum([...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS])).min(1).optional(),
  push: z.boolean().optional()
})

/** Whether a presented credential is a JWT (three base64url parts), not a key. */
export const looksLikeToken = (presented: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(presented) && presented.startsWith('ey')

/** A public key as jose imports it. */
type PublicKey = Awaited<ReturnType<typeof importSPKI>>

/** Public keys imported once per PEM and algorithm. */
const imported = new Map<string, Promise<PublicKey | undefined>>()

function publicKey (pem: string, alg: 'ES256' | 'RS256'): Promise<PublicKey | undefined> {
  const id = `${alg}\n${pem}`
  let key = imported.get(id)
  // A PEM of the other family (an RSA key for ES256) does not import: it verifies nothing.
  if (key === undefined) imported.set(id, key = importSPKI(pem, alg).catch(() => undefined))
  return key
}

/**
 * Secrets imported once each as WebCrypto keys: jose given raw bytes imports them again for every token
 * (bench:fanout's profile: about 70 µs of a connection's 290 µs of verification).
 */
const secretKeys = new Map<string, Promise<webcrypto.CryptoKey>>()

function secretKey (secret: string): Promise<webcrypto.CryptoKey> {
  let key = secretKeys.get(secret)
  if (key === undefined) {
    // Bounded: the secrets of every key, and of a few reloads before.
    if (secretKeys.size > 256) secretKeys.clear()
    secretKeys.set(secret, key = webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']))
  }
  return key
}

/** A verification key and which of the key's secrets or public keys it is (a digest, for a keys reload). */
interface Verifier { key: webcrypto.CryptoKey | PublicKey, signer: string }

/** A secret's or a public key's digest: which one signed a token, without keeping it twice. */
const signerOf = (material: string): string => createHash('sha256').update(material).digest('base64url')

/** The verification keys a token of `alg` may be checked against, from what the key holds. */
async function verifiersOf (settings: TokenSettings, alg: string): Promise<Verifier[]> {
  if (alg === 'HS256') return await Promise.all((settings.secrets ?? []).map(async (s) => ({ key: await secretKey(s), signer: signerOf(s) })))
  if (alg !== 'ES256' && alg !== 'RS256') return []
  const keys = await Promise.all((settings.public_keys ?? []).map(async (pem) => {
    const key = await publicKey(pem, alg)
    return key === undefined ? [] : [{ key, signer: signerOf(pem) }]
  }))
  return keys.flat()
}

/** Whether a key's reloaded token settings still hold the secret or public key a token was signed with. */
const stillHolds = (settings: TokenSettings, signer: string): boolean =>
  [...settings.secrets ?? [], ...settings.public_keys ?? []].some((m) => signerOf(m) === signer)

/**
 * Verifies a token against the key its `iss` names and returns the fan's grant. Throws TokenError, whose
 * message names no secret and quotes nothing of the token.
 */
export async function verifyToken (token: string, keys: KeyRing, now: number = Date.now()): Promise<TokenGrant> {
  let alg: string | undefined
  let iss: string | undefined
  try {
    alg = decodeProtectedHeader(token).alg
    iss = decodeJwt(token).iss
  } catch {
    throw new TokenError('invalid', 'the token is not a JWT')
  }
  const key = iss === undefined ? undefined : keys.all().find((k) => k.name === iss)
  const settings = key?.tokens
  if (key === undefined || settings === undefined) throw new TokenError('invalid', 'the token names no key that takes tokens (iss)')
  try {
    const verifiers = alg === undefined ? [] : await verifiersOf(settings, alg)
    if (alg === undefined || verifiers.length === 0) throw new TokenError('invalid', `the key does not take ${alg ?? 'unsigned'} tokens`)
    const { payload, signer } = await firstValid(token, verifiers, alg, key.name, now)
    return grantOf(key, settings, payload, signer, now)
  } catch (err) {
    if (err instanceof TokenError) err.key = key.name
    throw err
  }
}

/** The payload of the token under the first verifier that accepts its signature (two during a rotation). */
async function firstValid (token: string, verifiers: readonly Verifier[], alg: string, issuer: string, now: number): Promise<{ payload: JWTPayload, signer: string }> {
  let refusal: TokenError | undefined
  for (const verifier of verifiers) {
    try {
      const { payload } = await jwtVerify(token, verifier.key, { algorithms: [alg], issuer, requiredClaims: ['exp', 'sub'], currentDate: new Date(now), clockTolerance: SKEW_S })
      return { payload, signer: verifier.signer }
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new TokenError('expired', 'the token has expired')
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'nbf') throw new TokenError('not_yet_valid', 'the token is not valid yet')
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iat') throw new TokenError('not_yet_valid', 'the token was issued in the future')
      if (err instanceof errors.JWTClaimValidationFailed) throw new TokenError('invalid', `the token's ${err.claim} claim is missing or wrong`)
      refusal = new TokenError('invalid', 'the token\'s signature does not verify')
    }
  }
  throw refusal ?? new TokenError('invalid', 'the token\'s signature does not verify')
}

/** The fan's grant from verified claims: lifetime, revocation and narrowing checked. */
function grantOf (key: ClientKey, settings: TokenSettings, payload: JWTPayload, signer: string, now: number): TokenGrant {
  const parsed = ClaimsSchema.safeParse(payload)
  if (!parsed.success) throw new TokenError('invalid', `the token's claims are wrong: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
  const claims = parsed.data
  // Issued in the future: its lifetime and revocation would be measured from a time to come (jose checks
  // `iat` only against a maximum age).
  if (claims.iat !== undefined && claims.iat > now / 1000 + SKEW_S) throw new TokenError('not_yet_valid', 'the token was issued in the future')
  const start = claims.iat ?? claims.nbf ?? Math.floor(now / 1000)
  if (claims.exp - start > settings.max_lifetime_s + SKEW_S) throw new TokenError('too_long', `the token lives longer than the key allows (${settings.max_lifetime_s} s)`)
  if (settings.not_before !== undefined && (claims.iat === undefined || claims.iat * 1000 < Date.parse(settings.not_before))) {
    throw new TokenError('revoked', 'the token was issued before the key\'s not_before')
  }
  return { key: narrowed(key, claims, { iat: claims.iat, signer }), fan: claims.sub, expiresAt: claims.exp * 1000, issuedAt: claims.iat === undefined ? undefined : claims.iat * 1000 }
}

/** The narrowing claims a token record was made with. */
type Narrowing = Pick<z.infer<typeof ClaimsSchema>, 'leagues' | 'features' | 'fixtures' | 'teams' | 'kinds' | 'push'>
/** How a token was issued: when (`iat`), and with which of its key's secrets or public keys. */
interface Issue { iat: number | undefined, signer: string }

/** The narrowing claims of each key record a token made (every grant has its own), and how it was issued, for a keys reload. */
const narrowings = new WeakMap<ClientKey, Narrowing & Issue>()

/**
 * A token connection's record after a keys reload: the reloaded key narrowed again by the token's claims, or
 * undefined when the reloaded key no longer takes tokens, no longer holds the secret or public key that
 * signed it (a rotation's end: a secret removed may have leaked), no longer covers its claims, or now has a
 * `not_before` after it was issued (the connection is then ended as revoked). A connection made with the
 * key itself gets the reloaded record as it is.
 */
export function renarrow (fresh: ClientKey, old: ClientKey): ClientKey | undefined {
  const claims = narrowings.get(old)
  if (claims === undefined) return fresh
  if (fresh.tokens === undefined || !stillHolds(fresh.tokens, claims.signer)) return undefined
  const notBefore = fresh.tokens.not_before
  if (notBefore !== undefined && (claims.iat === undefined || claims.iat * 1000 < Date.parse(notBefore))) return undefined
  try {
    return narrowed(fresh, claims, claims)
  } catch {
    return undefined
  }
}

/** The key as the token narrows it; a claim the key does not cover refuses the token. */
function narrowed (key: ClientKey, claims: Narrowing, issue: Issue): ClientKey {
  const leagues = claims.leagues
  if (leagues !== undefined && key.leagues !== '*') {
    const outside = leagues.filter((id) => !(key.leagues as number[]).includes(id))
    if (outside.length > 0) throw new TokenError('wider_than_key', `the token claims leagues its key does not cover (${outside.join(', ')})`)
  }
  const features = claims.features
  if (features !== undefined) {
    const outside = features.filter((f) => !key.features.includes(f))
    if (outside.length > 0) throw new TokenError('wider_than_key', `the token claims features its key does not have (${outside.join(', ')})`)
  }
  const record: ClientKey = {
    ...key,
    ...(leagues !== undefined ? { leagues: [...new Set(leagues)] } : {}),
    ...(features !== undefined ? { features } : {})
  }
  narrowings.set(record, { leagues, features, fixtures: claims.fixtures, teams: claims.teams, kinds: claims.kinds, push: claims.push, iat: issue.iat, signer: issue.signer })
  return record
}

/** What a subscription or a request asks to follow, for claimRefusal. */
export interface Asked {
  /** Every league (`leagues: "*"`, or no filter at all on an HTTP feed). */
  all: boolean
  leagues: readonly number[]
  fixtures: readonly number[]
  teams: readonly number[]
  /** Days followed (a day is every fixture of it). */
  dates: number
  /** The kinds the subscription takes after it, undefined for every kind. */
  kinds: ReadonlySet<string> | undefined
}

/**
 * Why a token's follow claims refuse what is asked, or undefined when they allow it (always, for a key and
 * for a token without them). A token naming `fixtures` or `teams` follows only those: no league, no day, no
 * fixture or team beyond them. One naming `kinds` takes only those, named in every subscribe.
 */
export function claimRefusal (key: ClientKey, asked: Asked): string | undefined {
  const claims = narrowings.get(key)
  if (claims === undefined) return undefined
  const { fixtures, teams, kinds } = claims
  if (fixtures !== undefined || teams !== undefined) {
    const only = [fixtures === undefined ? '' : `fixtures ${fixtures.join(',')}`, teams === undefined ? '' : `teams ${teams.join(',')}`].filter(Boolean).join(' and ')
    if (asked.all || asked.leagues.length > 0 || asked.dates > 0) return `this token follows only ${only}: no league or day`
    const outside = [
      ...asked.fixtures.filter((id) => fixtures?.includes(id) !== true).map((id) => `fixture ${id}`),
      ...asked.teams.filter((id) => teams?.includes(id) !== true).map((id) => `team ${id}`)
    ]
    if (outside.length > 0) return `this token follows only ${only}, not ${outside.join(', ')}`
  }
  if (kinds !== undefined) {
    const beyond = asked.kinds === undefined ? ['every kind'] : [...asked.kinds].filter((k) => !(kinds as string[]).includes(k))
    if (beyond.length > 0) return `this token takes only the kinds ${kinds.join(',')} (name them in kinds), not ${beyond.join(', ')}`
  }
  return undefined
}

/** Whether a token's record may use the Web Push routes (a token claiming `push: false` may not). */
export const mayPush = (key: ClientKey): boolean => narrowings.get(key)?.push !== false
