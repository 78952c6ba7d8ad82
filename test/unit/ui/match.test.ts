/**
 * The match page's contents as data (src/ui/public/lib/match.js), pure and run in Node: statistics as paired
 * rows, the events' timeline with its breaks, line-ups on a pitch with substitutions marked, the table of the
 * match, and the state in a fan's words.
 */
import { describe, expect, it } from 'vitest'
// @ts-expect-error the page's plain JavaScript module (no declarations)
import { benchList, halfTimeScore, pitchLines, stateWords, statisticRows, tableOf, timeline } from '../../../src/ui/public/lib/match.js'
import type { LeagueStandings, LiveEvent, LiveFixture, TeamLineup } from '../../../src/wire-model/model.ts'

const event = (id: number, type: string, minute: number, side: 'home' | 'away', player: string, related?: string): LiveEvent => ({
  id, type_id: 0, type, minute, extra_minute: null, side, team_id: null, player: { id, name: player }, related_player: related === undefined ? null : { id: id + 1000, name: related }, result: null, info: null, addition: null, sort_order: null
} as unknown as LiveEvent)

function fixture (over: Partial<LiveFixture> = {}): LiveFixture {
  return {
    id: 1,
    league_id: 271,
    season_id: 1,
    stage_id: 7,
    round_id: 1,
    name: 'A v B',
    starting_at: '2026-12-07T15:00:00.000Z',
    state: { id: 22, code: 'INPLAY_2ND_HALF', name: '2nd Half', phase: 'live' },
    minute: 60,
    period: '2nd-half',
    clock: null,
    home: { id: 10, name: 'Home FC', short_code: 'HOM', image_path: null, score: 1 },
    away: { id: 20, name: 'Away FC', short_code: 'AWA', image_path: null, score: 1 },
    scores: { current: { home: 1, away: 1 }, '1st_half': { home: 1, away: 0 } },
    events: [],
    statistics: {},
    lineups: null,
    result_info: null,
    length: 90,
    updated_at: '2026-12-07T16:00:00.000Z',
    version: 5,
    ...over
  } as unknown as LiveFixture
}

describe('the statistics as paired rows', () => {
  it('orders them as fans read them, each side\'s share for its bar, the leader, and a sentence', () => {
    const rows = statisticRows({ corners: { home: 6, away: 3 }, possession: { home: 58, away: 42 }, type_999: { home: 1, away: 2 }, expected_goals: { home: 1.234, away: 0.5 } })
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['possession', 'expected_goals', 'corners'])
    expect(rows[0]).toMatchObject({ label: 'Ball possession', home: '58%', away: '42%', leader: 'home', spoken: 'Ball possession: 58% to 42%' })
    expect(rows[0].homeShare).toBeCloseTo(0.58)
    expect(rows[1]).toMatchObject({ home: '1.23', away: '0.50' })
    expect(rows[2]).toMatchObject({ home: '6', away: '3', leader: 'home' })
    expect(rows[2].awayShare).toBeCloseTo(1 / 3)
  })

  it('halves the bars of a level 0-0, and writes a side without a value as a dash', () => {
    expect(statisticRows({ red_cards: { home: 0, away: 0 } })[0]).toMatchObject({ homeShare: 0.5, awayShare: 0.5, leader: null })
    expect(statisticRows({ saves: { home: null, away: 2 } })[0]).toMatchObject({ home: '–', away: '2', leader: 'away' })
    expect(statisticRows({ saves: { home: null, away: null } })).toEqual([])
  })
})

describe('the events\' timeline', () => {
  it('puts the half-time line, with its score, between the halves', () => {
    const f = fixture({ events: [event(1, 'GOAL', 12, 'home', 'Ann'), event(2, 'YELLOWCARD', 44, 'away', 'Bo'), event(3, 'GOAL', 71, 'away', 'Cy')] })
    const items = timeline(f)
    expect(items.map((i: { kind: string, label?: string, event?: LiveEvent }) => i.kind === 'break' ? `${i.label} ${(i as unknown as { score: string }).score}` : i.event?.player?.name)).toEqual(['Ann', 'Bo', 'Half time 1-0', 'Cy'])
  })

  it('has no half-time line in the first half, and the shoot-out last with its score', () => {
    const first = fixture({ state: { id: 2, code: 'INPLAY_1ST_HALF', name: '1st Half', phase: 'live' }, period: '1st-half', events: [event(1, 'GOAL', 12, 'home', 'Ann')] })
    expect(halfTimeScore(first)).toBe('')
    expect(timeline(first).filter((i: { kind: string }) => i.kind === 'break')).toEqual([])
    const pens = fixture({
      state: { id: 8, code: 'FT_PEN', name: 'Full Time after Penalties', phase: 'finished' },
      scores: { current: { home: 1, away: 1 }, '1st_half': { home: 0, away: 0 }, penalty_shootout: { home: 4, away: 3 } },
      events: [event(9, 'PENALTY_SHOOTOUT_GOAL', 121, 'home', 'Kicker'), event(1, 'GOAL', 30, 'home', 'Ann')]
    })
    const items = timeline(pens)
    expect(items.at(-2)).toEqual({ kind: 'break', label: 'Penalty shoot-out', score: '4-3' })
    expect(items.at(-1).event.type).toBe('PENALTY_SHOOTOUT_GOAL')
  })
})

describe('line-ups on a pitch', () => {
  const player = (n: number, name: string, position: string | null, slot: number | null) => ({ player_id: n, name, number: n, position, formation_position: slot, formation_field: null })
  const eleven = [player(1, 'Keeper', 'goalkeeper', 1), ...[2, 3, 4, 5].map((n) => player(n, `Def ${n}`, 'defender', n)), ...[6, 7, 8].map((n) => player(n, `Mid ${n}`, 'midfielder', n)), ...[9, 10, 11].map((n) => player(n, `Att ${n}`, 'attacker', n))]
  const lineup = { formation: '4-3-3', starting: [...eleven].reverse(), bench: [player(12, 'Sub One', 'attacker', null), player(13, 'Sub Two', 'midfielder', null)] } as unknown as TeamLineup

  it('lays the eleven in lines from the goalkeeper up, by the formation, and marks who went off and came on', () => {
    const events = [event(50, 'SUBSTITUTION', 63, 'home', 'Sub One', 'Att 10'), event(51, 'YELLOWCARD', 30, 'home', 'Mid 7')]
    const lines = pitchLines(lineup, events)
    expect(lines.map((l: unknown[]) => l.length)).toEqual([1, 4, 3, 3])
    expect(lines[0][0].player.name).toBe('Keeper')
    expect(lines[3].find((p: { player: { name: string } }) => p.player.name === 'Att 10')).toMatchObject({ off: "63'", on: null })
    expect(lines[2].find((p: { player: { name: string } }) => p.player.name === 'Mid 7')).toMatchObject({ booked: 'YELLOWCARD' })
    expect(benchList(lineup, events).map((p: { player: { name: string }, on: string | null }) => [p.player.name, p.on])).toEqual([['Sub One', "63'"], ['Sub Two', null]])
  })

  it('falls back on the positions when the formation does not fit the eleven', () => {
    const lines = pitchLines({ ...lineup, formation: '4-4-2-1' }, [])
    expect(lines.map((l: unknown[]) => l.length)).toEqual([1, 4, 3, 3])
  })
})

describe('the table of the match', () => {
  const row = (team: number, position: number) => ({ team: { id: team, name: `T${team}`, short_code: null, image_path: null }, position, points: 0, played: 0, won: 0, drawn: 0, lost: 0, goals_for: 0, goals_against: 0, goal_difference: 0, result: null })
  const standings = {
    league_id: 271,
    season_id: 1,
    updated_at: '',
    version: 1,
    tables: [{ stage_id: 7, group_id: 1, rows: [row(1, 1), row(2, 2)] }, { stage_id: 7, group_id: 2, rows: [row(10, 1), row(20, 2)] }]
  } as unknown as LeagueStandings

  it('is the group holding both teams, else the stage\'s, else none without standings', () => {
    expect(tableOf(standings, fixture())?.group_id).toBe(2)
    expect(tableOf(standings, fixture({ home: { id: 99 } as never, away: { id: 98 } as never }))?.group_id).toBe(1)
    expect(tableOf(undefined, fixture())).toBeUndefined()
  })
})

describe('the state in a fan\'s words', () => {
  it('says a shoot-out\'s winner, and awaits extra time at a level FT of a knock-out still in play', () => {
    const pens = fixture({ state: { id: 8, code: 'FT_PEN', name: 'Full Time after Penalties', phase: 'finished' }, scores: { current: { home: 1, away: 1 }, penalty_shootout: { home: 3, away: 4 } } })
    expect(stateWords(pens)).toBe('Away FC win 4-3 on pens')
    const ft = fixture({ state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' } })
    expect(stateWords(ft, { mayGoOn: true, knockout: true })).toBe('Awaiting extra time')
    expect(stateWords(ft, { mayGoOn: true, knockout: false })).toBe('Full Time')
    expect(stateWords(ft, { mayGoOn: false, knockout: true })).toBe('Full Time')
    expect(stateWords({ ...ft, home: { ...ft.home, score: 2 } }, { mayGoOn: true, knockout: true })).toBe('Full Time')
  })
})
