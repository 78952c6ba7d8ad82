import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createKeyRing, demoKeys, KeysFileError, leagueAllowed, loadKeysFile, originAllowed } from '../../../src/client-keys.ts'

function file (content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'tl-keys-'))
  const path = join(dir, 'keys.json')
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('client keys', () => {
  it('loads a valid keys file with defaults', () => {
    const keys = loadKeysFile(file([{ key: 'k-scoped-1', name: 'scoped', leagues: [271] }, { key: 'k-all-2', name: 'all', hourly_quota: 10 }]))
    expect(keys[0]).toMatchObject({ name: 'scoped', leagues: [271], hourly_quota: 3000, max_connections: 100, allowed_origins: '*' })
    expect(keys[1]).toMatchObject({ leagues: '*', hourly_quota: 10 })
  })

  it('rejects an invalid entry naming its place but not the key', () => {
    let err: unknown
    try { loadKeysFile(file([{ key: 'super secret', name: 'x' }])) } catch (e) { err = e }
    expect(err).toBeInstanceOf(KeysFileError)
    expect((err as Error).message).toContain('0.key')
    expect((err as Error).message).not.toContain('super secret')
  })

  it('rejects duplicate keys, unknown fields and unreadable files', () => {
    expect(() => loadKeysFile(file([{ key: 'same-key', name: 'a' }, { key: 'same-key', name: 'b' }]))).toThrow(/duplicate key/)
    expect(() => loadKeysFile(file([{ key: 'one-key', name: 'a' }, { key: 'two-key', name: 'a' }]))).toThrow(/duplicate name/)
    expect(() => loadKeysFile(file([{ key: 'abcd', name: 'a', quota: 1 }]))).toThrow(/quota/)
    expect(() => loadKeysFile(file('not json'))).toThrow(/is not valid JSON/)
    expect(() => loadKeysFile('/nonexistent/keys.json')).toThrow(/cannot read/)
  })

  it('reports invalid JSON by position, without quoting the text around it (it may be a key)', () => {
    let err: unknown
    try { loadKeysFile(file('[{"key": "kept-secret-1", "name": "a"}, {"key": unquoted-secret-2}]')) } catch (e) { err = e }
    expect(err).toBeInstanceOf(KeysFileError)
    expect((err as Error).message).toMatch(/is not valid JSON/)
    expect((err as Error).message).not.toMatch(/secret/)
  })

  it('finds keys by exact match only', () => {
    const ring = createKeyRing(loadKeysFile(file([{ key: 'alpha-key', name: 'a' }, { key: 'beta-key', name: 'b' }])))
    expect(ring.find('beta-key')?.name).toBe('b')
    expect(ring.find('beta-ke')).toBeUndefined()
    expect(ring.find('')).toBeUndefined()
    expect(ring.find(undefined)).toBeUndefined()
  })

  it('the demo key sees every league from any origin', () => {
    const [demo] = demoKeys()
    expect(createKeyRing(demoKeys()).find('demo')?.name).toBe('demo')
    expect(leagueAllowed(demo!, 8)).toBe(true)
    expect(originAllowed(demo!, 'https://example.com')).toBe(true)
  })

  it('scopes leagues and origins', () => {
    const [k] = loadKeysFile(file([{ key: 'scoped-key', name: 's', leagues: [271], allowed_origins: ['https://a.example'] }]))
    expect(leagueAllowed(k!, 271)).toBe(true)
    expect(leagueAllowed(k!, 501)).toBe(false)
    expect(originAllowed(k!, 'https://a.example')).toBe(true)
    expect(originAllowed(k!, 'https://b.example')).toBe(false)
  })
})

describe('key features', () => {
  it('default to every paid feature and can be narrowed', () => {
    const [all, none] = loadKeysFile(file([{ key: 'all-features', name: 'a' }, { key: 'no-features', name: 'n', features: [] }]))
    expect(all?.features).toEqual(['xg', 'odds', 'predictions'])
    expect(none?.features).toEqual([])
    expect(() => loadKeysFile(file([{ key: 'bad-features', name: 'b', features: ['tv'] }]))).toThrow(/features/)
  })
})

describe('key reload', () => {
  it('swaps the keys in and names the removed ones', () => {
    const ring = createKeyRing(loadKeysFile(file([{ key: 'stays-key', name: 'stays' }, { key: 'goes-key', name: 'goes' }])))
    const removed = ring.replace(loadKeysFile(file([{ key: 'stays-key', name: 'stays' }, { key: 'new-key', name: 'new' }])))
    expect(removed).toEqual(['goes'])
    expect(ring.find('goes-key')).toBeUndefined()
    expect(ring.find('new-key')?.name).toBe('new')
    expect(ring.all().map((k) => k.name)).toEqual(['stays', 'new'])
  })
})
