import { describe, expect, it } from 'vitest'
import type { Change, FixtureOdds, LiveEvent, LiveFixture, OddsMarket } from '../../../src/wire-model/model.ts'
import { clean, clockLabel, cannotReachLine, describe as describeRecord, fixtureLine, oddsLines } from '../../../src/tail/format.ts'
import { fixture } from '../../integration/store/fixture.ts'

const f = (overrides: Partial<LiveFixture> = {}): LiveFixture => fixture(1, 501, {
  home: { id: 10, name: 'Celtic', short_code: null, image_path: null, score: 1 },
  away: { id: 11, name: 'Kilmarnock', short_code: null, image_path: null, score: 0 },
  minute: 23,
  ...overrides
})

const ev = (type: string, side: 'home' | 'away', player: string, minute: number, extra: number | null = null): LiveEvent => ({
  id: 1,
  type_id: 0,
  type,
  minute,
  extra_minute: extra,
  side,
  team_id: null,
  player: { id: null, name: player },
  related_player: null,
  result: null,
  info: null,
  addition: null,
  sort_order: null
})

const lines = (changes: Change[], fx = f()): string[] => describeRecord({ changes, fixture: fx })

describe('tail lines', () => {
  it('prints a goal with its scorer and minute, once, even with the score change beside it', () => {
    expect(lines([
      { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } },
      { kind: 'event_added', event: ev('GOAL', 'home', 'K. Furuhashi', 23) },
      { kind: 'clock', minute: 23, previous: 22 }
    ])).toEqual(["23' Celtic 1-0 Kilmarnock  goal (K. Furuhashi)"])
    expect(lines([{ kind: 'event_added', event: ev('PENALTY', 'home', 'K. Furuhashi', 45, 2) }])).toEqual(["45+2' Celtic 1-0 Kilmarnock  goal, penalty (K. Furuhashi)"])
  })

  it('prints state changes, cards and VAR removals', () => {
    const ht = { id: 3, code: 'HT', name: 'Half Time', phase: 'break' as const }
    const first = { id: 2, code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' as const }
    expect(lines([{ kind: 'state_changed', state: ht, previous: first }], f({ state: ht, minute: null }))).toEqual(['HT Celtic 1-0 Kilmarnock'])
    expect(lines([{ kind: 'event_added', event: ev('YELLOWCARD', 'away', 'S. Lyons', 31) }])).toEqual(["31' Celtic 1-0 Kilmarnock  yellow card (S. Lyons, Kilmarnock)"])
    expect(lines([
      { kind: 'score_changed', home: 1, away: 0, previous: { home: 1, away: 1 } },
      { kind: 'event_removed', event: ev('GOAL', 'away', 'K. Vassell', 38) }
    ])).toEqual(["38' Celtic 1-0 Kilmarnock  goal cancelled by VAR (K. Vassell)"])
  })

  it('prints nothing for clock ticks and substitutions, and a bare score change as a goal', () => {
    expect(lines([{ kind: 'clock', minute: 24, previous: 23 }])).toEqual([])
    expect(lines([{ kind: 'event_added', event: ev('SUBSTITUTION', 'home', 'X', 60) }])).toEqual([])
    expect(lines([{ kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }])).toEqual(["23' Celtic 1-0 Kilmarnock  goal"])
  })

  it('labels the clock with the minute while live, the state otherwise, and shows a shoot-out', () => {
    expect(clockLabel(f())).toBe("23'")
    expect(clockLabel(f({ state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' }, minute: null }))).toBe('FT')
    expect(fixtureLine(f({ state: { id: 8, code: 'FT_PEN', name: 'After Penalties', phase: 'finished' }, scores: { current: { home: 1, away: 1 }, penalty_shootout: { home: 4, away: 3 } } })))
      .toBe('FTP Celtic 1-0 Kilmarnock (4-3 pens)')
  })

  it('writes stoppage time as events do: 90+3\', not 93\'', () => {
    const at = Date.parse('2026-11-24T20:00:00Z')
    const clock = (countsFrom: number, minutesAgo: number): LiveFixture['clock'] =>
      ({ period_started_at: new Date(at - minutesAgo * 60_000 - 10_000).toISOString(), counts_from: countsFrom, length: 45, added: 4, rate: 1, ticking: true })
    expect(clockLabel(f({ minute: 93, clock: clock(45, 48) }), at)).toBe("90+3'")
    expect(clockLabel(f({ minute: 46, clock: clock(0, 46) }), at)).toBe("45+1'")
    expect(clockLabel(f({ minute: 67, clock: clock(45, 22) }), at)).toBe("67'")
    // No clock: the period says where regulation time ends.
    expect(clockLabel(f({ minute: 94, period: '2nd-half', clock: null }))).toBe("90+4'")
  })

  it('says "cannot reach <url>" when nothing answers there, with the network error when known', () => {
    expect(cannotReachLine({ url: 'http://127.0.0.1:8080', detail: 'ECONNREFUSED', delayMs: 1500 }))
      .toBe('cannot reach http://127.0.0.1:8080 (ECONNREFUSED); retrying in 1.5 s')
    expect(cannotReachLine({ url: 'https://scores.example', detail: 'ENOTFOUND', delayMs: 500 }))
      .toBe('cannot reach https://scores.example (ENOTFOUND); retrying in 0.5 s')
    expect(cannotReachLine({ url: 'https://scores.example', delayMs: 400 })).toBe('cannot reach https://scores.example; retrying in 0.4 s')
  })

  it('colours goals when asked', () => {
    const [line] = describeRecord({ changes: [{ kind: 'event_added', event: ev('GOAL', 'home', 'A', 1) }], fixture: f() }, { color: true })
    expect(line?.startsWith('\u001b[32m')).toBe(true)
    expect(line?.endsWith('\u001b[0m')).toBe(true)
  })
})

describe('names from the feed', () => {
  it('are printed without control characters, so a name cannot drive the terminal', () => {
    expect(clean('Celtic\u001b[2J\u001b[31m FC\u001b[0m')).toBe('Celtic FC')
    expect(clean('\u001b]0;pwned\u0007Rangers\r\n\u0000\u009b')).toBe('Rangers')
    expect(clean('Atlético · 1. FC Köln')).toBe('Atlético · 1. FC Köln')
    const hostile = f({
      home: { id: 10, name: 'Celtic\u001b[2J', short_code: null, image_path: null, score: 1 },
      away: { id: 11, name: 'Kil\u001b]0;x\u0007marnock\n', short_code: null, image_path: null, score: 0 }
    })
    expect(fixtureLine(hostile)).toBe("23' Celtic 1-0 Kilmarnock")
    const scorer = ev('YELLOWCARD', 'away', '\u001b[8mHidden', 30)
    expect(lines([{ kind: 'event_added', event: scorer }], hostile)).toEqual(["30' Celtic 1-0 Kilmarnock  yellow card (Hidden, Kilmarnock)"])
  })
})

describe('tail odds lines', () => {
  const market = (id: number, name: string, line: string | null, labels: string[]): OddsMarket => ({
    bookmaker_id: 2,
    bookmaker: 'bet365',
    market_id: id,
    market: name,
    line,
    status: 'open',
    selections: labels.map((label) => ({ label, total: line, handicap: null, name: null, price: '2.00', decimal: 2, winning: null }))
  })
  const odds: FixtureOdds = {
    fixture_id: 1,
    league_id: 501,
    home_id: 10,
    away_id: 11,
    stale: false,
    updated_at: '2026-11-21T20:00:00.000Z',
    version: 3,
    markets: [market(1, 'Fulltime Result', null, ['1', 'X', '2']), market(80, 'Goals Over/Under', '2.5', ['Over', 'Under'])]
  }
  const key = (label: string, total: string | null = null): { label: string, total: string | null, handicap: null } => ({ label, total, handicap: null })

  it('prints one line per price move with its arrow and the price before, and one per market status', () => {
    expect(oddsLines([
      { kind: 'odds_changed', bookmaker_id: 2, market_id: 1, line: null, selection: key('1'), price: '1.50', decimal: 1.5, previous: { price: '1.62', decimal: 1.62 }, direction: 'down' },
      { kind: 'odds_changed', bookmaker_id: 2, market_id: 80, line: '2.5', selection: key('Over', '2.5'), price: '2.10', decimal: 2.1, previous: { price: '1.90', decimal: 1.9 }, direction: 'up' },
      { kind: 'market_suspended', bookmaker_id: 2, market_id: 1, line: null },
      { kind: 'market_settled', bookmaker_id: 2, market_id: 1, line: null, winning: [key('1')] },
      { kind: 'odds_stale', stale: true, confirmed_at: null }
    ], odds, f())).toEqual([
      "23' Celtic 1-0 Kilmarnock  odds bet365 Fulltime Result 1: 1.50 \u2193 (was 1.62)",
      "23' Celtic 1-0 Kilmarnock  odds bet365 Goals Over/Under 2.5 Over: 2.10 \u2191 (was 1.90)",
      "23' Celtic 1-0 Kilmarnock  odds bet365 Fulltime Result suspended",
      "23' Celtic 1-0 Kilmarnock  odds bet365 Fulltime Result settled: 1"
    ])
  })

  it('names a market it does not hold by its ids, and strips control characters from upstream text', () => {
    expect(oddsLines([{ kind: 'market_reopened', bookmaker_id: 9, market_id: 77, line: null }], odds, undefined)).toEqual(['fixture 1  odds bookmaker 9 market 77 reopened'])
    const hostile = { ...odds, markets: [{ ...market(1, 'Result\u001b[2J', null, ['1']), bookmaker: 'bet\u0007365' }] }
    expect(oddsLines([{ kind: 'market_suspended', bookmaker_id: 2, market_id: 1, line: null }], hostile, undefined)[0]).toBe('fixture 1  odds bet365 Result suspended')
  })
})
