/**
 * Scripted matches for tests that drive the store by hand (no poller): each call builds the next version of
 * a fixture and the changes the differ would have found, and applies them, as the poller does. So a test
 * can put a goal, a card or a VAR cancellation on screen at an exact moment.
 */
import { STATE_BY_CODE } from '../../packages/upstream-contract/src/states.ts'
import type { Change, ChangeRecord, LiveEvent, LiveFixture, Side } from '../../src/wire-model/model.ts'
import type { LiveStore } from '../../src/store/types.ts'

export const KICKOFF = '2026-11-21T19:00:00.000Z'

export interface Match {
  readonly id: number
  readonly fixture: LiveFixture
  goal: (side: Side, scorer: string, minute: number, type?: 'GOAL' | 'PENALTY' | 'OWNGOAL') => Promise<ChangeRecord>
  /** A card, or another event that leaves the score alone (a missed penalty). */
  card: (side: Side, player: string, minute: number, type?: 'YELLOWCARD' | 'REDCARD' | 'YELLOWREDCARD' | 'MISSED_PENALTY') => Promise<ChangeRecord>
  /** Any other event that leaves the score alone: a substitution (`player` on, `related` off), a VAR decision (`info`). */
  event: (side: Side, type: 'SUBSTITUTION' | 'VAR', player: string, minute: number, more?: { related?: string, info?: string }) => Promise<ChangeRecord>
  /** Removes the goal scored by `scorer` (VAR), the score going down with it. */
  cancelGoal: (scorer: string) => Promise<ChangeRecord>
  clock: (minute: number) => Promise<ChangeRecord>
  state: (code: string) => Promise<ChangeRecord>
}

const TYPE_IDS: Record<string, number> = { VAR: 10, GOAL: 14, OWNGOAL: 15, PENALTY: 16, MISSED_PENALTY: 17, SUBSTITUTION: 18, YELLOWCARD: 19, REDCARD: 20, YELLOWREDCARD: 21 }
let nextEventId = 900_000

export interface Matches {
  start: (id: number, leagueId: number, home: string, away: string, minute?: number) => Promise<Match>
}

export function matches (store: LiveStore): Matches {
  return {
    async start (id, leagueId, home, away, minute = 1) {
      // A match started past the 45th minute is in its second half (the clock reads 80', not 45+35').
      const second = minute > 45
      const state = STATE_BY_CODE.get(second ? 'INPLAY_2ND_HALF' : 'INPLAY_1ST_HALF')
      if (state === undefined) throw new Error('no state')
      let current: LiveFixture = {
        id,
        league_id: leagueId,
        season_id: 1,
        stage_id: 1,
        round_id: null,
        name: `${home} vs ${away}`,
        starting_at: KICKOFF,
        state: { id: state.id, code: state.state, name: state.name, phase: state.phase },
        minute,
        period: second ? '2nd-half' : '1st-half',
        home: { id: id * 10, name: home, short_code: null, image_path: null, score: 0 },
        away: { id: id * 10 + 1, name: away, short_code: null, image_path: null, score: 0 },
        scores: { current: { home: 0, away: 0 } },
        events: [],
        statistics: {},
        lineups: null,
        result_info: null,
        length: 90,
        updated_at: new Date().toISOString(),
        version: 0
      }

      const apply = async (next: LiveFixture, changes: Change[]): Promise<ChangeRecord> => {
        const at = new Date().toISOString()
        const live = next.state.phase !== 'finished'
        const result = await store.apply({ fixture: { ...next, updated_at: at }, changes, expectedVersion: current.version, live, at })
        if (!result.ok) throw new Error(`fixture ${id}: not applied: ${JSON.stringify(result)}`)
        current = result.record.fixture
        return result.record
      }

      const event = (side: Side, player: string, minute: number, type: string, result: string | null): LiveEvent => ({
        id: nextEventId++,
        type_id: TYPE_IDS[type] ?? 0,
        type,
        minute,
        extra_minute: null,
        side,
        team_id: current[side].id,
        player: { id: null, name: player },
        related_player: null,
        result,
        info: null,
        addition: null,
        sort_order: null
      })

      const rescore = (home: number, away: number): Pick<LiveFixture, 'home' | 'away' | 'scores'> => ({
        home: { ...current.home, score: home },
        away: { ...current.away, score: away },
        scores: { ...current.scores, current: { home, away } }
      })

      await apply(current, [{ kind: 'fixture_added' }])
      return {
        id,
        get fixture () { return current },
        async goal (side, scorer, minute, type = 'GOAL') {
          const previous = { home: current.home.score ?? 0, away: current.away.score ?? 0 }
          const scoring: Side = type === 'OWNGOAL' ? (side === 'home' ? 'away' : 'home') : side
          const home = previous.home + (scoring === 'home' ? 1 : 0)
          const away = previous.away + (scoring === 'away' ? 1 : 0)
          const e = event(side, scorer, minute, type, `${home}-${away}`)
          return await apply({ ...current, ...rescore(home, away), minute, events: [...current.events, e] },
            [{ kind: 'score_changed', home, away, previous, goals: [e] }, { kind: 'event_added', event: e }, { kind: 'clock', minute, previous: current.minute }])
        },
        async card (side, player, minute, type = 'YELLOWCARD') {
          const e = event(side, player, minute, type, null)
          return await apply({ ...current, minute, events: [...current.events, e] }, [{ kind: 'event_added', event: e }])
        },
        async event (side, type, player, minute, more = {}) {
          const e = { ...event(side, player, minute, type, null), related_player: more.related === undefined ? null : { id: null, name: more.related }, info: more.info ?? null }
          return await apply({ ...current, minute, events: [...current.events, e] }, [{ kind: 'event_added', event: e }])
        },
        async cancelGoal (scorer) {
          const e = current.events.find((x) => x.player?.name === scorer && (x.type === 'GOAL' || x.type === 'PENALTY' || x.type === 'OWNGOAL'))
          if (e === undefined || e.side === null) throw new Error(`no goal by ${scorer}`)
          const previous = { home: current.home.score ?? 0, away: current.away.score ?? 0 }
          const scoring: Side = e.type === 'OWNGOAL' ? (e.side === 'home' ? 'away' : 'home') : e.side
          const home = previous.home - (scoring === 'home' ? 1 : 0)
          const away = previous.away - (scoring === 'away' ? 1 : 0)
          return await apply({ ...current, ...rescore(home, away), events: current.events.filter((x) => x.id !== e.id) },
            [{ kind: 'score_changed', home, away, previous }, { kind: 'event_removed', event: e }])
        },
        async clock (minute) {
          return await apply({ ...current, minute }, [{ kind: 'clock', minute, previous: current.minute }])
        },
        async state (code) {
          const def = STATE_BY_CODE.get(code)
          if (def === undefined) throw new Error(`unknown state ${code}`)
          const s = { id: def.id, code: def.state, name: def.name, phase: def.phase }
          const changes: Change[] = [{ kind: 'state_changed', state: s, previous: current.state }]
          if (def.phase === 'finished') changes.push({ kind: 'fixture_removed' })
          return await apply({ ...current, state: s, minute: def.phase === 'live' ? current.minute : null }, changes)
        }
      }
    }
  }
}
