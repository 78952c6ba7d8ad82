/**
 * Upstream fixture → LiveFixture (docs/protocol.md, "LiveFixture"). Pure: no IO, no clock; the store assigns `version` and the
 * caller passes the detection time as `now`.
 */
import { STATE_BY_ID } from '@touchline/upstream-contract/states'
import { SCORE_DESCRIPTIONS } from '@touchline/upstream-contract/types'
import type { LiveFixture, LiveState, LiveTeam, Side } from '../wire-model/model.ts'
import { normalizeEvents } from './events.ts'
import { normalizeLineups, normalizeStatistics } from './match-centre.ts'
import type { FixtureInput, ParticipantInput, PeriodInput, ScoreInput } from './input.ts'
import { anchoredClock } from '../protocol/clock.ts'

export interface NormalizeOptions {
  /**
   * ISO 8601 time written to `updated_at`.
   * @default '1970-01-01T00:00:00.000Z' (the normalizer reads no clock; the store sets the real time)
   */
  now?: string
  /**
   * Match seconds per real second of the upstream's clock, for `clock.rate`: 1 for the real API, the
   * simulator's speed against the embedded provider. @default 1
   */
  clockRate?: number
}

const EPOCH = '1970-01-01T00:00:00.000Z'

/** Keys of `LiveFixture.scores` the differ reports on its own (the others go into fixture_updated). */
export const CURRENT_SCORE = 'current'
export const SHOOTOUT_SCORE = 'penalty_shootout'

type TeamInfo = Omit<LiveTeam, 'score'>

interface Sides {
  home: TeamInfo
  away: TeamInfo
  sideOf: (participantId: number | null) => Side | null
}

const other = (side: Side): Side => side === 'home' ? 'away' : 'home'
const isSide = (value: unknown): value is Side => value === 'home' || value === 'away'

/** "Home vs Away" → the two names, or [] when the name does not have that shape. */
function namesFromTitle (name: string | null | undefined): string[] {
  const parts = name?.split(' vs ') ?? []
  return parts.length === 2 ? parts.map((p) => p.trim()) : []
}

/**
 * Places the participants. Sources, most to least reliable: the pivot `meta.location`; the score rows'
 * `score.participant` (same team id); the "Home vs Away" order of the fixture name. When one side is
 * known and there are two teams, the other one gets the other side. The participants' array order is
 * not a source: the PSG–Arsenal recording lists the away team first.
 */
function placeParticipants (fx: FixtureInput): Map<Side, ParticipantInput> {
  const teams = fx.participants ?? []
  const placed = new Map<Side, ParticipantInput>()
  const place = (side: Side, team: ParticipantInput | undefined): void => {
    if (team === undefined || placed.has(side) || [...placed.values()].includes(team)) return
    placed.set(side, team)
  }
  for (const team of teams) {
    const location = team.meta?.location
    if (isSide(location)) place(location, team)
  }
  for (const row of fx.scores ?? []) {
    const side = row.score.participant
    if (isSide(side)) place(side, teams.find((t) => t.id === row.participant_id))
  }
  const [homeName, awayName] = namesFromTitle(fx.name)
  place('home', teams.find((t) => t.name === homeName))
  place('away', teams.find((t) => t.name === awayName))
  if (teams.length === 2) {
    for (const [side, team] of [...placed]) place(other(side), teams.find((t) => t !== team))
  }
  return placed
}

/**
 * Team of one side; without a participant, the id of the side's score rows and the name from the title
 * ("A vs B"), also used when the participant came without a name.
 */
function teamInfo (fx: FixtureInput, side: Side, team: ParticipantInput | undefined): TeamInfo {
  const titleName = namesFromTitle(fx.name)[side === 'home' ? 0 : 1] ?? ''
  if (team !== undefined) {
    return { id: team.id, name: team.name ?? titleName, short_code: team.short_code ?? null, image_path: team.image_path || null }
  }
  const row = (fx.scores ?? []).find((s) => s.score.participant === side && typeof s.participant_id === 'number')
  // id 0 stands for "unknown team"; it only happens when upstream sends neither participants nor scores.
  return { id: row?.participant_id ?? 0, name: titleName, short_code: null, image_path: null }
}

function resolveSides (fx: FixtureInput): Sides {
  const placed = placeParticipants(fx)
  const home = teamInfo(fx, 'home', placed.get('home'))
  const away = teamInfo(fx, 'away', placed.get('away'))
  const sideOf = (participantId: number | null): Side | null => {
    if (participantId === null || participantId === 0) return null
    if (participantId === home.id) return 'home'
    if (participantId === away.id) return 'away'
    return null
  }
  return { home, away, sideOf }
}

function scoreKey (row: ScoreInput): string {
  const description = row.description || SCORE_DESCRIPTIONS[row.type_id] || `type_${row.type_id}`
  return description.toLowerCase()
}

/**
 * Scores by type, keyed by the lower-cased description (current, 1st_half, penalty_shootout...). The side
 * of a row comes from its team id, else from its own `score.participant`. A missing side counts 0.
 * Keys are sorted so that equal scores serialize equally.
 */
function normalizeScores (rows: readonly ScoreInput[], sideOf: Sides['sideOf']): LiveFixture['scores'] {
  const scores: LiveFixture['scores'] = {}
  // By id, so that if upstream ever sends two rows for one type and side, the newest one wins.
  const ordered = [...rows].sort((a, b) => (a.id ?? 0) - (b.id ?? 0))
  for (const row of ordered) {
    const side = sideOf(row.participant_id ?? null) ?? (isSide(row.score.participant) ? row.score.participant : null)
    if (side === null) continue
    const key = scoreKey(row)
    const entry = scores[key] ?? { home: 0, away: 0 }
    entry[side] = row.score.goals
    scores[key] = entry
  }
  return Object.fromEntries(Object.entries(scores).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/**
 * The state comes from the table by `state_id`: its English name and code, never the include's `name`,
 * which is translated when `locale` is set. The include only helps for an id the table does not know.
 */
function normalizeState (fx: FixtureInput): LiveState {
  const def = STATE_BY_ID.get(fx.state_id)
  if (def !== undefined) return { id: def.id, code: def.state, name: def.name, phase: def.phase }
  const include = fx.state?.id === fx.state_id ? fx.state : undefined
  const code = include?.developer_name || include?.state || 'UNKNOWN'
  return { id: fx.state_id, code, name: include?.name || code, phase: 'unknown' }
}

/**
 * The ticking period: `currentperiod` when present, else a ticking row of `detailedperiods` (ET split in
 * halves), else of `periods`.
 */
function tickingPeriod (fx: FixtureInput): PeriodInput | undefined {
  if (fx.currentperiod?.ticking === true) return fx.currentperiod
  for (const list of [fx.detailedperiods, fx.periods]) {
    const ticking = Array.isArray(list) ? list.find((p) => p.ticking === true) : undefined
    if (ticking !== undefined) return ticking
  }
  return undefined
}

/**
 * Clock minute and period. Only while the state is in play: in breaks (HT, BREAK, ETB, PENB), at FT or
 * when suspended both are null even if a stale period still says it ticks.
 */
function normalizeClock (fx: FixtureInput, state: LiveState, atMs: number, rate: number): Pick<LiveFixture, 'minute' | 'period' | 'clock'> {
  const period = state.phase === 'live' ? tickingPeriod(fx) : undefined
  if (period === undefined) return { minute: null, period: null, clock: null }
  const minute = period.minutes ?? null
  const countsFrom = period.counts_from ?? null
  // The shoot-out has no running clock (minutes null); neither has a period without its offset.
  const clock = minute === null || countsFrom === null || !Number.isFinite(atMs)
    ? null
    : anchoredClock({ atMs, minute, second: period.seconds ?? null, rate }, { counts_from: countsFrom, length: period.period_length ?? null, added: period.time_added ?? null, ticking: true })
  return { minute, period: period.description || null, clock }
}

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/

/**
 * ISO 8601 UTC from `starting_at_timestamp` (unix seconds). `starting_at` is only a fallback: it is in the
 * request's timezone without an offset, so it is read as UTC (the poller does not set `timezone`).
 */
function startingAt (fx: FixtureInput): string | null {
  if (typeof fx.starting_at_timestamp === 'number' && Number.isFinite(fx.starting_at_timestamp)) {
    return new Date(fx.starting_at_timestamp * 1000).toISOString()
  }
  const match = fx.starting_at ? LOCAL_DATE_TIME.exec(fx.starting_at) : null
  return match ? `${match[1]}T${match[2]}.000Z` : null
}

const legacyGoals = (goals: number | null | undefined): number | null => typeof goals === 'number' ? goals : null

/**
 * The CURRENT score. With the `scores` include, its CURRENT rows (0-0 before they appear); without it, the
 * legacy `home_score`/`away_score` of early-2023 bodies; without either, unknown (null), never 0-0.
 */
function currentScore (fx: FixtureInput, scores: LiveFixture['scores']): { home: number | null, away: number | null } {
  if (Array.isArray(fx.scores)) return scores[CURRENT_SCORE] ?? { home: 0, away: 0 }
  return { home: legacyGoals(fx.home_score), away: legacyGoals(fx.away_score) }
}

/** Normalizes one upstream fixture (with the live includes) into a LiveFixture with `version` 0. */
export function normalizeFixture (upstream: FixtureInput, opts: NormalizeOptions = {}): LiveFixture {
  const sides = resolveSides(upstream)
  const scores = normalizeScores(upstream.scores ?? [], sides.sideOf)
  const current = currentScore(upstream, scores)
  const state = normalizeState(upstream)
  const clock = normalizeClock(upstream, state, Date.parse(opts.now ?? EPOCH), opts.clockRate ?? 1)
  return {
    id: upstream.id,
    league_id: upstream.league_id,
    season_id: upstream.season_id,
    stage_id: upstream.stage_id,
    round_id: upstream.round_id ?? null,
    name: upstream.name ?? null,
    starting_at: startingAt(upstream),
    state,
    minute: clock.minute,
    period: clock.period,
    clock: clock.clock,
    home: { ...sides.home, score: current.home },
    away: { ...sides.away, score: current.away },
    scores,
    events: normalizeEvents(upstream.events ?? [], sides.sideOf),
    statistics: normalizeStatistics(upstream.statistics ?? [], sides.sideOf),
    lineups: normalizeLineups(upstream.lineups ?? [], upstream.formations ?? [], { home: sides.home.id, away: sides.away.id }, sides.sideOf),
    result_info: upstream.result_info ?? null,
    length: upstream.length ?? null,
    updated_at: opts.now ?? EPOCH,
    version: 0
  }
}

/**
 * What the upstream did not send says nothing, so the stored values stand: an include absent, null or not
 * a list (upstream/schemas.ts reads all three as not sent), a league or state id it could not give (0,
 * the schemas' fallback), a live fixture without any period to read the clock from. Without this one odd
 * poll would tell every client that the events were removed, the score unknown, the crests gone, the
 * fixture moved to league 0 or the clock stopped, and the next poll would put it all back. A fixture seen
 * for the first time has nothing stored: it is taken as it came.
 */
export function keepUnsent (prev: LiveFixture | undefined, next: LiveFixture, upstream: FixtureInput): LiveFixture {
  if (prev === undefined) return next
  const out = { ...next }
  if (next.league_id === 0) out.league_id = prev.league_id
  // Without its state the clock cannot be read either (it runs only in play).
  const stateUnsent = next.state.id === 0
  if (stateUnsent) out.state = prev.state
  if (!Array.isArray(upstream.participants)) {
    out.home = { ...prev.home, score: out.home.score }
    out.away = { ...prev.away, score: out.away.score }
  }
  if (!Array.isArray(upstream.scores) && typeof upstream.home_score !== 'number' && typeof upstream.away_score !== 'number') {
    out.scores = prev.scores
    out.home = { ...out.home, score: prev.home.score }
    out.away = { ...out.away, score: prev.away.score }
  }
  if (!Array.isArray(upstream.events)) out.events = prev.events
  // The match centre's includes: a poll without them (an older recording, a smaller plan) keeps what was read.
  if (!Array.isArray(upstream.statistics)) out.statistics = prev.statistics ?? {}
  if (!Array.isArray(upstream.lineups) && !Array.isArray(upstream.formations)) out.lineups = prev.lineups ?? null
  const periodsUnsent = !Array.isArray(upstream.periods) && !Array.isArray(upstream.detailedperiods) && !isObject(upstream.currentperiod)
  if (stateUnsent || (periodsUnsent && out.state.phase === 'live' && out.state.id === prev.state.id)) {
    out.minute = prev.minute
    out.period = prev.period
    out.clock = prev.clock
  }
  return out
}

const isObject = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value)
