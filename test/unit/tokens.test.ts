/**
 * Signed connection tokens (src/tokens.ts), verified with jose against keys as the keys file sets them:
 * HS256 with a key's secrets and ES256 / RS256 with its public keys; expired, not yet valid, bad signature,
 * `alg: none`, algorithm confusion (an HS256 token signed with an ES256 key's public key), a token claiming
 * more than its key, a lifetime over the key's, a token issued before the key's `not_before`, a rotation
 * with two secrets; and what a grant gives: the key narrowed, the fan, the expiry.
 */
import { exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createKeyRing, KeysFileSchema, type KeyRing } from '../../src/client-keys.ts'
import { looksLikeToken, renarrow, TokenError, verifyToken } from '../../src/tokens.ts'

const SECRET = 'a-secret-of-the-apps-backend-32-chars-long'
const OLD_SECRET = 'the-old-secret-still-in-rotation-32-chars'
const NOW = Date.parse('2026-12-07T12:00:00Z')
const s = (ms: number): number => Math.floor(ms / 1000)

let ring: KeyRing
let ecPrivate: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']
let ecPublicPem: string
let rsaPrivate: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']

beforeAll(async () => {
  const ec = await generateKeyPair('ES256', { extractable: true })
  const rsa = await generateKeyPair('RS256', { extractable: true })
  ecPrivate = ec.privateKey
  rsaPrivate = rsa.privateKey
  ecPublicPem = await exportSPKI(ec.publicKey)
  ring = createKeyRing(KeysFileSchema.parse([
    { key: 'site-key-hs', name: 'site', leagues: [8, 271, 501], features: ['odds'], tokens: { secrets: [SECRET, OLD_SECRET], max_lifetime_s: 3600 } },
    { key: 'site-key-ec', name: 'signed', tokens: { public_keys: [ecPublicPem, await exportSPKI(rsa.publicKey)], not_before: '2026-12-07T11:00:00Z' } },
    { key: 'plain-key', name: 'plain' }
  ]))
})

/** A token of `iss` with these claims, signed HS256 with `secret`; iat now, exp in 10 minutes unless said. */
async function hs (claims: Record<string, unknown>, secret = SECRET, iss = 'site'): Promise<string> {
  return await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuer(iss).setSubject(String(claims.sub ?? 'fan-1'))
    .setIssuedAt(s(NOW)).setExpirationTime(typeof claims.exp === 'number' ? claims.exp : s(NOW) + 600).sign(new TextEncoder().encode(secret))
}

async function refusal (token: string, now = NOW): Promise<string> {
  try {
    await verifyToken(token, ring, now)
  } catch (err) {
    if (err instanceof TokenError) return err.reason
    throw err
  }
  return 'accepted'
}

describe('connection tokens', () => {
  it('grants a fan its key, narrowed by the token, until its exp', async () => {
    const grant = await verifyToken(await hs({ sub: 'fan-42', leagues: [271], features: [] }), ring, NOW)
    expect(grant).toMatchObject({ fan: 'fan-42', expiresAt: (s(NOW) + 600) * 1000, issuedAt: s(NOW) * 1000 })
    expect(grant.key).toMatchObject({ name: 'site', leagues: [271], features: [] })
    // Without narrowing claims: the key's own scope.
    expect((await verifyToken(await hs({ sub: 'fan-1' }), ring, NOW)).key).toMatchObject({ name: 'site', leagues: [8, 271, 501], features: ['odds'] })
  })

  it('refuses an expired token and one not valid yet, with 5 s of skew', async () => {
    expect(await refusal(await hs({ exp: s(NOW) - 10 }))).toBe('expired')
    expect(await refusal(await hs({ exp: s(NOW) - 2 }))).toBe('accepted')
    const later = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('site').setSubject('f').setIssuedAt(s(NOW)).setNotBefore(s(NOW) + 60).setExpirationTime(s(NOW) + 600).sign(new TextEncoder().encode(SECRET))
    expect(await refusal(later)).toBe('not_yet_valid')
    expect(await refusal(later, NOW + 61_000)).toBe('accepted')
  })

  it('refuses a bad signature, alg none, and a token without exp or sub', async () => {
    expect(await refusal(await hs({}, 'another-secret-of-32-characters-or-more'))).toBe('invalid')
    const none = new UnsecuredJWT({ sub: 'f' }).setIssuer('site').setIssuedAt(s(NOW)).setExpirationTime(s(NOW) + 600).encode()
    expect(await refusal(none)).toBe('invalid')
    const noExp = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('site').setSubject('f').sign(new TextEncoder().encode(SECRET))
    expect(await refusal(noExp)).toBe('invalid')
    const noSub = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('site').setExpirationTime(s(NOW) + 600).sign(new TextEncoder().encode(SECRET))
    expect(await refusal(noSub)).toBe('invalid')
  })

  it('refuses algorithm confusion: an HS256 token signed with an ES256 key\'s public key', async () => {
    // The attacker knows the public key (it is public) and signs HS256 with its text as the HMAC secret.
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('signed').setSubject('attacker').setIssuedAt(s(NOW)).setExpirationTime(s(NOW) + 600).sign(new TextEncoder().encode(ecPublicPem))
    expect(await refusal(forged)).toBe('invalid')
    // The key's own ES256 and RS256 tokens verify.
    for (const [alg, priv] of [['ES256', ecPrivate], ['RS256', rsaPrivate]] as const) {
      const token = await new SignJWT({}).setProtectedHeader({ alg }).setIssuer('signed').setSubject('fan-7').setIssuedAt(s(NOW)).setExpirationTime(s(NOW) + 600).sign(priv)
      expect((await verifyToken(token, ring, NOW)).fan).toBe('fan-7')
    }
  })

  it('refuses a token claiming more than its key: a league or a feature it does not have', async () => {
    expect(await refusal(await hs({ leagues: [271, 2] }))).toBe('wider_than_key')
    expect(await refusal(await hs({ features: ['xg'] }))).toBe('wider_than_key')
    await expect(verifyToken(await hs({ leagues: [2] }), ring, NOW)).rejects.toThrow('leagues its key does not cover (2)')
  })

  it('refuses a lifetime over the key\'s, a token issued before its not_before, and a key that takes no tokens', async () => {
    expect(await refusal(await hs({ exp: s(NOW) + 7200 }))).toBe('too_long')
    // Issued a minute before the key's not_before (11:00), checked at 11:05, well within its ten minutes.
    const issued = Date.parse('2026-12-07T10:59:00Z')
    const old = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('signed').setSubject('f').setIssuedAt(s(issued)).setExpirationTime(s(issued) + 600).sign(ecPrivate)
    expect(await refusal(old, issued + 6 * 60_000)).toBe('revoked')
    expect(await refusal(await hs({}, SECRET, 'plain'))).toBe('invalid')
    expect(await refusal(await hs({}, SECRET, 'nobody'))).toBe('invalid')
    expect(await refusal('not.a.token')).toBe('invalid')
  })

  it('refuses a token issued in the future (its lifetime and revocation would run from then)', async () => {
    const ahead = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('site').setSubject('f').setIssuedAt(s(NOW) + 30 * 86_400).setExpirationTime(s(NOW) + 30 * 86_400 + 600).sign(new TextEncoder().encode(SECRET))
    expect(await refusal(ahead)).toBe('not_yet_valid')
  })

  it('narrows a reloaded key again by the token\'s claims, and ends it where the key no longer allows them', async () => {
    const grant = await verifyToken(await hs({ leagues: [271] }), ring, NOW)
    const [wider, narrower, untokened] = KeysFileSchema.parse([
      { key: 'site-key-hs', name: 'site', leagues: '*', tokens: { secrets: [SECRET] } },
      { key: 'site-key-hs2', name: 'site2', leagues: [8], tokens: { secrets: [SECRET] } },
      { key: 'site-key-hs3', name: 'site3', leagues: [271] }
    ])
    expect(renarrow(wider!, grant.key)?.leagues).toEqual([271])
    expect(renarrow(narrower!, grant.key)).toBeUndefined()
    expect(renarrow(untokened!, grant.key)).toBeUndefined()
    // A connection made with the key itself takes the reloaded record as it is.
    expect(renarrow(wider!, ring.all()[0]!)).toBe(wider)
    // A not_before set after the token was issued revokes it; one before its iat does not.
    const [revoking, earlier] = KeysFileSchema.parse([
      { key: 'site-key-hs4', name: 'site4', leagues: '*', tokens: { secrets: [SECRET], not_before: new Date(NOW + 60_000).toISOString() } },
      { key: 'site-key-hs5', name: 'site5', leagues: '*', tokens: { secrets: [SECRET], not_before: new Date(NOW - 60_000).toISOString() } }
    ])
    expect(renarrow(revoking!, grant.key)).toBeUndefined()
    expect(renarrow(earlier!, grant.key)?.leagues).toEqual([271])
  })

  it('takes both secrets during a rotation, and only the one left after it', async () => {
    expect(await refusal(await hs({}, OLD_SECRET))).toBe('accepted')
    const rotated = createKeyRing(KeysFileSchema.parse([{ key: 'site-key-hs', name: 'site', tokens: { secrets: [SECRET] } }]))
    await expect(verifyToken(await hs({}, OLD_SECRET), rotated, NOW)).rejects.toThrow(TokenError)
    expect((await verifyToken(await hs({}, SECRET), rotated, NOW)).fan).toBe('fan-1')
    // A connection of the old secret ends when a reload removes it (it may have leaked); the new one's stays.
    const [after] = rotated.all()
    expect(renarrow(after!, (await verifyToken(await hs({}, OLD_SECRET), ring, NOW)).key)).toBeUndefined()
    expect(renarrow(after!, (await verifyToken(await hs({}, SECRET), ring, NOW)).key)?.name).toBe('site')
  })

  it('tells a token from a key, and never quotes the token or a secret in its refusals', async () => {
    const token = await hs({ leagues: [2] })
    expect(looksLikeToken(token)).toBe(true)
    expect(looksLikeToken('site-key-hs')).toBe(false)
    const message = await verifyToken(token, ring, NOW).then(() => '', (err: Error) => err.message)
    for (const secret of [token, SECRET, ...token.split('.')]) expect(message).not.toContain(secret)
  })

  it('refuses a keys file with a short secret or a public key that is not PEM, naming the field', () => {
    const bad = KeysFileSchema.safeParse([{ key: 'kkkk', name: 'x', tokens: { secrets: ['short'] } }, { key: 'kkkl', name: 'y', tokens: { public_keys: ['abc'] } }, { key: 'kkkm', name: 'z', tokens: {} }])
    expect(bad.success).toBe(false)
    const paths = bad.error?.issues.map((i) => i.path.join('.'))
    expect(paths).toEqual(expect.arrayContaining(['0.tokens.secrets.0', '1.tokens.public_keys.0', '2.tokens']))
  })
})
