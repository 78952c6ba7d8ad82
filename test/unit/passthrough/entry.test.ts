import { describe, expect, it } from 'vitest'
import { deserializeEntry, leaguesOf, partsOf, renderEnvelope, serializeEntry, type CachedEntry } from '../../../src/passthrough/entry.ts'

const envelope = {
  data: [{ id: 1, league_id: 271 }, { id: 2, league_id: 501 }],
  pagination: { count: 2, per_page: 25, current_page: 1, next_page: null, has_more: false },
  subscription: [{ meta: {}, plans: [], add_ons: [], widgets: [] }],
  rate_limit: { resets_in_seconds: 10, remaining: 4999, requested_entity: 'Fixture' },
  timezone: 'UTC'
}

describe('envelope parts', () => {
  it('drops the upstream rate_limit and stitches the caller\'s back in the upstream\'s field order', () => {
    const split = partsOf(envelope)
    expect(split).toBeDefined()
    const text = renderEnvelope(split?.parts ?? {}, { resets_in_seconds: 3600, remaining: 2, requested_entity: 'Fixture' })
    const back = JSON.parse(text)
    expect(Object.keys(back)).toEqual(['data', 'pagination', 'subscription', 'rate_limit', 'timezone'])
    expect(back).toEqual({ ...envelope, rate_limit: { resets_in_seconds: 3600, remaining: 2, requested_entity: 'Fixture' } })
  })

  it('keeps the no-results form (message, no data) and rejects what is not an envelope', () => {
    const split = partsOf({ message: 'No result(s) found', subscription: [], rate_limit: {}, timezone: 'UTC' })
    expect(JSON.parse(renderEnvelope(split?.parts ?? {}, {}))).toEqual({ message: 'No result(s) found', subscription: [], rate_limit: {}, timezone: 'UTC' })
    expect(partsOf('<html>')).toBeUndefined()
    expect(partsOf({ data: 'x' })).toBeUndefined()
    expect(partsOf([1])).toBeUndefined()
  })

  it('notes the leagues of the records, or null when records carry none', () => {
    expect(leaguesOf('fixture', envelope.data)).toEqual([271, 501])
    expect(leaguesOf('league', { id: 8 })).toEqual([8])
    expect(leaguesOf('team', [{ id: 1 }])).toBeNull()
    expect(leaguesOf('fixture', [])).toEqual([])
  })

  it('round-trips through its Redis form', () => {
    const entry: CachedEntry = { status: 200, entity: 'Fixture', parts: partsOf(envelope)?.parts ?? {}, leagues: [271], storedAt: 1, expiresAt: 2 }
    expect(deserializeEntry(serializeEntry(entry))).toEqual(entry)
    expect(deserializeEntry('garbage')).toBeUndefined()
    expect(deserializeEntry('{"v":2}\n[]')).toBeUndefined()
  })
})
