import { describe, expect, it } from 'vitest'
import { buildRecord, encodeApply, formatCursor, parseCursor, recordJson } from '../../../src/store/record.ts'
import type { ApplyInput } from '../../../src/store/types.ts'
import { fixture } from '../../integration/store/fixture.ts'

describe('cursor encoding', () => {
  it('round-trips <epoch>:<offset>', () => {
    expect(parseCursor(formatCursor('00ff', 42))).toEqual({ epoch: '00ff', offset: 42 })
    expect(parseCursor('abc:0')).toEqual({ epoch: 'abc', offset: 0 })
  })

  it('rejects malformed cursors instead of guessing', () => {
    for (const bad of ['', 'abc', 'abc:', ':1', 'abc:-1', 'abc:01', 'abc:1.5', 'ABC:1', 'abc:1:2', 'abc:99999999999999999']) {
      expect(parseCursor(bad), bad).toBeUndefined()
    }
  })
})

describe('record encoding', () => {
  it('builds the same JSON as JSON.stringify of the record, with the version set to expected + 1', () => {
    const input: ApplyInput = {
      fixture: fixture(7, 271, { version: 99 }),
      changes: [{ kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }],
      expectedVersion: 3,
      live: true,
      at: '2026-11-21T20:15:03.120Z'
    }
    const enc = encodeApply(input)
    expect(enc.fixture.version).toBe(4)
    expect(JSON.parse(enc.fixtureJson)).toEqual(enc.fixture)
    const record = buildRecord('ab:5', input, enc)
    expect(recordJson('ab:5', enc)).toBe(JSON.stringify(record))
    expect(input.fixture.version).toBe(99) // the caller's object is not mutated
  })
})
