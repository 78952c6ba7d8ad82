/**
 * Hand-made variants of a live shoot-out (the PSG–Arsenal recording rewound to state 9): null, then absent,
 * in every position of the base fields, periods, scores, events, participants and state. None may drop
 * the fixture, throw in the normalizer or the differ, or make a client-visible value up; each odd value
 * is reported at its own path.
 */
import { describe, expect, it } from 'vitest'
import { diffFixtures } from '../../../src/diff/diff.ts'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Change, LiveFixture } from '../../../src/live/types.ts'
import type { Anomaly } from '../../../src/upstream/anomalies.ts'
import { parseFixture } from '../../../src/upstream/schemas.ts'
import { liveShootout } from '../../helpers/real-upstream.ts'

type Json = Record<string, any>

const BASE = liveShootout()
const KINDS = new Set<Change['kind']>(['fixture_added', 'state_changed', 'score_changed', 'event_added', 'event_updated', 'event_removed', 'period_changed', 'clock', 'fixture_updated', 'fixture_removed'])
const LISTS = ['periods', 'detailedperiods', 'scores', 'events', 'participants'] as const
const OBJECTS = ['state', 'currentperiod'] as const

interface Variant { name: string, where: string, field: string, fixture: Json }

/** Sets (or deletes) `field` in every row of a list, or in an object include, or at the base. */
function variant (where: string, field: string, value: null | undefined): Variant {
  const fixture = structuredClone(BASE)
  const set = (row: Json): void => { if (value === undefined) delete row[field]; else row[field] = value }
  if (where === 'base') set(fixture)
  else if (Array.isArray(fixture[where])) (fixture[where] as Json[]).forEach(set)
  else set(fixture[where] as Json)
  return { name: `${where}.${field} ${value === null ? 'null' : 'absent'}`, where, field, fixture }
}

function variants (): Variant[] {
  const out: Variant[] = []
  const scalarKeys = Object.keys(BASE).filter((k) => BASE[k] === null || typeof BASE[k] !== 'object')
  const rowKeys = (where: string): string[] => {
    const rows = Array.isArray(BASE[where]) ? BASE[where] as Json[] : [BASE[where] as Json]
    return [...new Set(rows.flatMap((r) => Object.keys(r)))]
  }
  for (const key of scalarKeys) if (key !== 'id') out.push(variant('base', key, null), variant('base', key, undefined))
  for (const where of [...LISTS, ...OBJECTS]) {
    for (const key of rowKeys(where)) out.push(variant(where, key, null), variant(where, key, undefined))
    out.push(variant('base', where, null), variant('base', where, undefined))
  }
  return out
}

function parse (fixture: Json): { live: LiveFixture, anomalies: Anomaly[] } {
  const anomalies: Anomaly[] = []
  const parsed = parseFixture(fixture, { anomalies: (a) => anomalies.push(a) })
  if (parsed === undefined) throw new Error('fixture dropped')
  return { live: normalizeFixture(parsed), anomalies }
}

const base = parse(BASE)

describe('null and absent values in every position of a live shoot-out', () => {
  it('the unmodified shoot-out parses without anomalies, 2-2 in the shoot-out', () => {
    expect(base.anomalies).toEqual([])
    expect(base.live).toMatchObject({ state: { id: 9 }, period: 'penalties', minute: null, scores: { penalty_shootout: { home: 2, away: 2 } } })
  })

  const all = variants()
  it('covers every field of every include', () => {
    expect(all.length).toBeGreaterThan(150)
  })

  for (const v of all) {
    it(v.name, () => {
      const { live, anomalies } = parse(v.fixture)
      // The fixture is kept, as itself, in the shoot-out, with two named teams.
      expect(live.id).toBe(BASE.id)
      expect(live.state).toMatchObject({ id: 9, phase: 'live' })
      expect(live.home.name).toBe('Paris Saint Germain')
      expect(live.away.name).toBe('Arsenal')
      expect(JSON.parse(JSON.stringify(live))).toEqual(live)
      // Anomalies are reported where the value was changed, nowhere else.
      const prefix = v.where === 'base' ? v.field : v.where
      for (const a of anomalies) {
        expect(a.fixtureId).toBe(BASE.id)
        expect(a.path === prefix || a.path.startsWith(`${prefix}.`), a.path).toBe(true)
      }
      // The differ copes both ways and sees no change between a variant and itself.
      for (const [a, b] of [[base.live, live], [live, base.live]] as const) {
        for (const change of diffFixtures(a, b)) expect(KINDS.has(change.kind)).toBe(true)
      }
      expect(diffFixtures(live, parse(structuredClone(v.fixture)).live)).toEqual([])
      // Scores are never made up: either the shoot-out's real values, or unknown / missing.
      if (v.where !== 'scores' && !(v.where === 'base' && v.field === 'scores')) {
        expect(live.scores.penalty_shootout).toEqual({ home: 2, away: 2 })
        expect([live.home.score, live.away.score]).toEqual([1, 1])
      }
      if (v.where === 'base' && v.field === 'scores') expect([live.home.score, live.away.score]).toEqual([null, null])
    })
  }

  it('keeps the events of a row with a null minute, after the others', () => {
    const fixture = structuredClone(BASE)
    const goal = (fixture.events as Json[]).find((e) => e.type_id === 14) as Json
    goal.minute = null
    const { live, anomalies } = parse(fixture)
    expect(live.events).toHaveLength(base.live.events.length)
    expect(live.events.find((e) => e.id === goal.id)?.minute).toBeNull()
    expect(anomalies).toMatchObject([{ path: 'events.minute', fixtureId: BASE.id }])
  })

  it('drops only the row whose identity is unusable', () => {
    const fixture = structuredClone(BASE)
    const [event] = fixture.events as Json[]
    const [score] = fixture.scores as Json[]
    if (event === undefined || score === undefined) throw new Error('no rows')
    event.id = null
    score.score = { goals: null, participant: 'home' }
    const { live, anomalies } = parse(fixture)
    expect(live.events).toHaveLength(base.live.events.length - 1)
    expect(anomalies.map((a) => a.path).sort()).toEqual(['events.id', 'scores.score'])
  })
})
