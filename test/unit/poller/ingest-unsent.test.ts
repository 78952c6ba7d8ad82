/**
 * One odd poll of the real API (an include or a base id null, absent or not a list) says nothing about what it
 * did not send: the stored fixture stands and no change goes out for it (keepUnsent, diff/normalize.ts).
 * Through the path the poller uses: parseFixture (upstream/schemas.ts) -> ingestFixture -> memory store,
 * on the real PSG-Arsenal recording (rewound into its shoot-out, or into its first half).
 */
import { describe, expect, it } from 'vitest'
import { ingestFixture } from '../../../src/poller/ingest.ts'
import { createMemoryStore } from '../../../src/store/memory-store.ts'
import { parseFixture } from '../../../src/upstream/schemas.ts'
import { liveShootout } from '../../helpers/real-upstream.ts'

type Json = Record<string, any>

const shootout = (): Json => {
  const { lineups: _l, timeline: _t, statistics: _s, comments: _c, ...base } = liveShootout()
  return base
}

/** The recording at 30:10 of the first half, its clock ticking. */
const firstHalf = (): Json => {
  const f = shootout()
  const first = { ...(f.periods as Json[]).find((p) => p.type_id === 1), ticking: true, ended: null, minutes: 30, seconds: 10, time_added: null }
  const { detailedperiods: _d, ...rest } = f
  return {
    ...rest,
    state_id: 2,
    state: { id: 2, state: 'INPLAY_1ST_HALF', name: '1st Half', short_name: '1st', developer_name: 'INPLAY_1ST_HALF' },
    periods: [first],
    currentperiod: first,
    events: (f.events as Json[]).filter((e) => e.minute <= 30 && e.type_id !== 22 && e.type_id !== 23),
    scores: (f.scores as Json[]).filter((s) => s.type_id !== 5)
  }
}

const T0 = '2026-05-31T20:00:00.000Z'
const T1 = '2026-05-31T20:00:02.000Z'

/** Ingests `base`, then `base` as `second` leaves it, two seconds later. */
async function twoPolls (base: Json, second: (f: Json) => void) {
  const store = createMemoryStore()
  const parse = (raw: Json) => {
    const parsed = parseFixture(raw)
    if (parsed === undefined) throw new Error('the fixture was dropped')
    return parsed
  }
  await ingestFixture(store, parse(structuredClone(base)), T0)
  const before = await store.getFixture(base.id)
  const next = structuredClone(base)
  second(next)
  const result = await ingestFixture(store, parse(next), T1)
  const after = await store.getFixture(base.id)
  return { before, after, result, kinds: result?.record.changes.map((c) => c.kind) ?? [] }
}

describe('a poll that leaves something out changes nothing it left out', () => {
  for (const form of ['null', 'absent', 'an object'] as const) {
    const unsend = (f: Json, key: string): void => {
      if (form === 'null') f[key] = null
      else if (form === 'absent') delete f[key]
      else f[key] = { data: [] }
    }

    it(`events ${form}: no event_removed, the stored events stand`, async () => {
      const { kinds, before, after } = await twoPolls(shootout(), (f) => unsend(f, 'events'))
      expect(kinds).toEqual([])
      expect(after?.events).toEqual(before?.events)
      expect(after?.events.length).toBeGreaterThan(0)
    })

    it(`scores ${form}: no score change to null or 0-0, the shoot-out score stands`, async () => {
      const { kinds, before, after } = await twoPolls(shootout(), (f) => unsend(f, 'scores'))
      expect(kinds).toEqual([])
      expect(after?.scores).toEqual(before?.scores)
      expect(after?.home.score).toBe(before?.home.score)
      expect(after?.scores.penalty_shootout).toBeDefined()
    })

    it(`participants ${form}: the teams' codes and crests stand`, async () => {
      const { kinds, before, after } = await twoPolls(shootout(), (f) => unsend(f, 'participants'))
      expect(kinds).toEqual([])
      expect(after?.home).toEqual(before?.home)
      expect(after?.away.image_path).toEqual(before?.away.image_path)
      expect(after?.away.image_path).not.toBeNull()
    })

    it(`periods and currentperiod ${form} while the clock runs: no clock or period change, the clock stands`, async () => {
      const { kinds, before, after } = await twoPolls(firstHalf(), (f) => {
        unsend(f, 'periods')
        if (form === 'an object') f.currentperiod = null
        else unsend(f, 'currentperiod')
      })
      expect(before?.clock).not.toBeNull()
      expect(kinds).toEqual([])
      expect(after?.clock).toEqual(before?.clock)
      expect(after?.minute).toBe(before?.minute)
    })
  }

  it('league_id null: the record and the stored fixture keep the fixture\'s league', async () => {
    const base = shootout()
    const { result, after } = await twoPolls(base, (f) => {
      f.league_id = null
      // A real change in the same poll, so that a record is written.
      f.events = [...f.events, { ...f.events.find((e: Json) => e.type_id === 23), id: 999_000_001, minute: 7 }]
    })
    expect(result?.record.changes.map((c) => c.kind)).toEqual(['event_added'])
    expect(result?.record.league_id).toBe(base.league_id)
    expect(after?.league_id).toBe(base.league_id)
  })

  it('state_id null and no state include: no state change to an unknown state', async () => {
    const { kinds, before, after } = await twoPolls(shootout(), (f) => { f.state_id = null; delete f.state })
    expect(kinds).toEqual([])
    expect(after?.state).toEqual(before?.state)
  })

  it('what the upstream did send still counts: an empty events list removes the events', async () => {
    const { kinds, after } = await twoPolls(shootout(), (f) => { f.events = [] })
    expect(kinds.length).toBeGreaterThan(0)
    expect(new Set(kinds)).toEqual(new Set(['event_removed']))
    expect(after?.events).toEqual([])
  })

  it('a scores include without the shoot-out rows does move the shoot-out score', async () => {
    const { result, after } = await twoPolls(shootout(), (f) => { f.scores = f.scores.filter((s: Json) => s.type_id !== 5) })
    expect(result?.record.changes).toEqual([expect.objectContaining({ kind: 'score_changed', score_type: 'penalty_shootout' })])
    expect(after?.scores.penalty_shootout).toBeUndefined()
  })
})
