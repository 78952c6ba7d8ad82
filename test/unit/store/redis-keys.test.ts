import { describe, expect, it } from 'vitest'
import { redisKeys, DEFAULT_PREFIX } from '../../../src/store/redis-keys.ts'

/** The part of a key Redis Cluster hashes: the first `{...}` with content, else the whole key. */
function hashTag (key: string): string {
  const open = key.indexOf('{')
  const close = key.indexOf('}', open + 1)
  return open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key
}

describe('store keys', () => {
  it('builds every key from the default prefix tl:', () => {
    const keys = redisKeys()
    expect(DEFAULT_PREFIX).toBe('tl:')
    expect(keys.meta).toBe('tl:{store}:meta')
    expect(keys.log).toBe('tl:{store}:log')
    expect(keys.versions).toBe('tl:{store}:versions')
    expect(keys.fixtures).toBe('tl:{store}:fixtures')
    expect(keys.live).toBe('tl:{store}:live')
    expect(keys.liveLeague(271)).toBe('tl:{store}:live:271')
    expect(keys.changesChannel).toBe('tl:changes')
    expect(keys.lease('poller')).toBe('tl:lease:poller')
    expect(keys.pattern).toBe('tl:*')
  })

  it('puts every key the apply script touches in one cluster slot', () => {
    const keys = redisKeys('x:')
    const touched = [keys.meta, keys.log, keys.versions, keys.fixtures, keys.live, keys.liveLeague(271), keys.liveLeague(501)]
    expect(new Set(touched.map(hashTag))).toEqual(new Set(['store']))
  })

  it('derives league sets from liveLeaguePrefix, which the Lua scripts extend with a stored league id', () => {
    const keys = redisKeys()
    expect(keys.liveLeague(501)).toBe(`${keys.liveLeaguePrefix}501`)
  })

  it('keeps deployments with different prefixes apart and matches them with pattern', () => {
    const a = redisKeys('tl-test-a:')
    const b = redisKeys('tl-test-b:')
    expect(a.log).not.toBe(b.log)
    expect(a.log.startsWith(a.pattern.slice(0, -1))).toBe(true)
    expect(b.lease('poller').startsWith(a.pattern.slice(0, -1))).toBe(false)
  })

  it('rejects prefixes with braces or glob characters', () => {
    expect(() => redisKeys('tl:{x}:')).toThrow(TypeError)
    expect(() => redisKeys('tl*')).toThrow(TypeError)
    expect(() => redisKeys('tl?')).toThrow(TypeError)
    expect(() => redisKeys('tl[')).toThrow(TypeError)
  })
})
