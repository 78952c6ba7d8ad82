/**
 * Hand-made variants of a live shoot-out (the PSG–Arsenal recording rewound to state 9): null, then absent,
 * in every position of the base fields, periods, scores, events, participants and state. None may drop
 * the fixture, throw in the normalizer or the differ, or make a client-visible value up; each odd value
 * is reported at its own path.
 */
import { describe, expect, it } from 'vitest'
import { diffFixtures } from '../../../src/diff/diff.ts'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Change, LiveFixture } from '../../../src/wire-model/model.ts'
import type { Anomaly } from '../../../src/upstream/anomalies.ts'
import { parseFixture } from '../../../src/upstream/schemas.ts'
import { liveShootout } from '../../helpers/real-upstream.ts'

type Json = Record<string, any>

// Without the includes nobody models (lineups, timeline, statistics, comments): they pass through untouched,
// and cloning their 400 KB for each of the thousand variants below would only cost time.
const { lineups: _l, timeline: _t, statistics: _s, comments: _c, ...BASE } = liveShootout()
const KINDS = new Set<Change['kind']>(['fixture_added', 'state_changed', 'score_changed', 'event_added', 'event_updated', 'event_removed', 'period_changed', 'clock', 'fixture_updated', 'fixture_removed'])
const LISTS = ['periods', 'detailedperiods', 'scores', 'events', 'participants'] as const
const OBJECTS = ['state', 'currentperiod'] as const

interface Variant { name: string, where: string, field: string, fixture: Json }

/** Sets (or deletes) `field` in every row of a list (or its first only), or in an object include, or at the base. */
function variant (where: string, field: string, value: unknown, rows: 'all' | 'first' = 'all'): Variant {
  const fixture = structuredClone(BASE)
  const set = (row: Json): void => { if (value === undefined) delete row[field]; else row[field] = value }
  if (where === 'base') set(fixture)
  else if (Array.isArray(fixture[where])) (fixture[where] as Json[]).slice(0, rows === 'all' ? undefined : 1).forEach(set)
  else set(fixture[where] as Json)
  return { name: `${where}.${field} ${value === null ? 'null' : 'absent'}`, where, field, fixture }
}

/** Every position: each base field (not `id`), each field of each include, each include as a whole. */
function positions (): Array<{ where: string, field: string }> {
  const out: Array<{ where: string, field: string }> = []
  const scalarKeys = Object.keys(BASE).filter((k) => BASE[k] === null || typeof BASE[k] !== 'object')
  const rowKeys = (where: string): string[] => {
    const rows = Array.isArray(BASE[where]) ? BASE[where] as Json[] : [BASE[where] as Json]
    return [...new Set(rows.flatMap((r) => Object.keys(r)))]
  }
  for (const key of scalarKeys) if (key !== 'id') out.push({ where: 'base', field: key })
  for (const where of [...LISTS, ...OBJECTS]) {
    for (const key of rowKeys(where)) out.push({ where, field: key })
    out.push({ where: 'base', field: where })
  }
  return out
}

const variants = (): Variant[] => positions().flatMap(({ where, field }) => [variant(where, field, null), variant(where, field, undefined)])

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

  it('survives a value of the wrong type in every position', () => {
    const junk: unknown[] = ['x', 1.5, -1, true, {}, [null]]
    let tried = 0
    for (const { where, field } of positions()) {
      for (const value of junk) {
        const v = variant(where, field, value, 'first')
        const { live } = parse(v.fixture)
        expect(live.id, v.name).toBe(BASE.id)
        expect(JSON.parse(JSON.stringify(live))).toEqual(live)
        expect(() => diffFixtures(base.live, live)).not.toThrow()
        expect(diffFixtures(live, parse(structuredClone(v.fixture)).live)).toEqual([])
        tried++
      }
    }
    expect(tried).toBeGreaterThan(500)
  }, 30_000)

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
