import { describe, expect, it } from 'vitest'
import { budgetKeys } from '../../../src/store/redis-keys.ts'

describe('budgetKeys', () => {
  it('puts every ledger key under the prefix and one hash tag', () => {
    const keys = budgetKeys('tl:')
    expect(keys.bucket('Fixture')).toBe('tl:{budget}:bucket:Fixture')
    expect(keys.claims('Fixture')).toBe('tl:{budget}:claims:Fixture')
    expect(keys.entities).toBe('tl:{budget}:entities')
    expect(keys.pattern).toBe('tl:{budget}:*')
  })

  it('rejects prefixes that would break the hash tag or the scan pattern', () => {
    expect(() => budgetKeys('a{b}:')).toThrow(TypeError)
    expect(() => budgetKeys('a*:')).toThrow(TypeError)
  })
})
