/**
 * Cursor and record encoding shared by both engines, so they hand out identical cursors and identical JSON.
 */
import { randomBytes } from 'node:crypto'
import type { ChangeRecord, FixtureOdds, LeagueStandings, LiveFixture, OddsRecord, StandingsRecord } from '../wire-model/model.ts'
import type { ApplyInput, OddsApplyInput, StandingsApplyInput, StoreFilter } from './types.ts'

/** A fresh log epoch: 64 random bits in hex, so cursors of a lost log can never be mistaken for new ones. */
export function newEpoch (): string {
  return randomBytes(8).toString('hex')
}

/** Validates a log length option: a log must keep at least its newest entry. */
export function checkMaxLength (maxLength: number): number {
  if (!Number.isSafeInteger(maxLength) || maxLength < 1) throw new RangeError(`maxLength must be a positive integer, got ${maxLength}`)
  return maxLength
}

/** Validates a read limit; NaN or a negative count would silently read nothing (or confuse the Lua loop). */
export function checkLimit (limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`)
  return limit
}

export function formatCursor (epoch: string, offset: number): string {
  return `${epoch}:${offset}`
}

const CURSOR = /^([0-9a-f]{1,64}):(0|[1-9][0-9]{0,15})$/

/** Parses `<epoch>:<offset>`; undefined when malformed (so the caller answers recovered:false). */
export function parseCursor (cursor: string): { epoch: string, offset: number } | undefined {
  const m = CURSOR.exec(cursor)
  if (m === null) return undefined
  const offset = Number(m[2])
  return Number.isSafeInteger(offset) ? { epoch: m[1] as string, offset } : undefined
}

/**
 * A record serialized in parts, because only the append knows its cursor: the JSON is
 * `{"cursor":"<cursor>",` + `head` + `fixtureJson` + `}`. The fixture is serialized once and serves as
 * both the snapshot and the record's `fixture`, and the Redis script receives it only once.
 */
export interface EncodedApply {
  fixture: LiveFixture
  fixtureJson: string
  /** `"fixture_id":…,"league_id":…,"at":…,"live":…,"changes":[…],"fixture":` */
  head: string
}

export function encodeApply (input: ApplyInput): EncodedApply {
  const fixture = { ...input.fixture, version: input.expectedVersion + 1 }
  const fixtureJson = JSON.stringify(fixture)
  const fields = JSON.stringify({ fixture_id: fixture.id, league_id: fixture.league_id, at: input.at, live: input.live, changes: input.changes })
  return { fixture, fixtureJson, head: `${fields.slice(1, -1)},"fixture":` }
}

/** The record's JSON. apply-11.lua concatenates the same parts; keep both in step. */
export function recordJson (cursor: string, enc: EncodedApply): string {
  return `{"cursor":"${cursor}",${enc.head}${enc.fixtureJson}}`
}

export function buildRecord (cursor: string, input: ApplyInput, enc: EncodedApply): ChangeRecord {
  return { cursor, fixture_id: enc.fixture.id, league_id: enc.fixture.league_id, at: input.at, live: input.live, changes: input.changes, fixture: enc.fixture }
}

/** An odds record serialized in parts, as EncodedApply: `{"cursor":"<cursor>",` + `head` + `oddsJson` + `}`. */
export interface EncodedOddsApply {
  odds: FixtureOdds
  oddsJson: string
  /** `"fixture_id":…,"league_id":…,"at":…,"changes":[…],"odds":` */
  head: string
}

export function encodeOddsApply (input: OddsApplyInput): EncodedOddsApply {
  const odds = { ...input.odds, version: input.expectedVersion + 1 }
  const oddsJson = JSON.stringify(odds)
  const fields = JSON.stringify({ fixture_id: odds.fixture_id, league_id: odds.league_id, at: input.at, changes: input.changes })
  return { odds, oddsJson, head: `${fields.slice(1, -1)},"odds":` }
}

export function oddsRecordJson (cursor: string, enc: EncodedOddsApply): string {
  return `{"cursor":"${cursor}",${enc.head}${enc.oddsJson}}`
}

export function buildOddsRecord (cursor: string, input: OddsApplyInput, enc: EncodedOddsApply): OddsRecord {
  return { cursor, fixture_id: enc.odds.fixture_id, league_id: enc.odds.league_id, at: input.at, changes: input.changes, odds: enc.odds }
}

/** A standings record serialized in parts, as EncodedApply: `{"cursor":"<cursor>",` + `head` + `standingsJson` + `}`. */
export interface EncodedStandingsApply {
  standings: LeagueStandings
  standingsJson: string
  /** `"league_id":…,"at":…,"changes":[…],"standings":` */
  head: string
}

export function encodeStandingsApply (input: StandingsApplyInput): EncodedStandingsApply {
  const standings = { ...input.standings, version: input.expectedVersion + 1 }
  const standingsJson = JSON.stringify(standings)
  const fields = JSON.stringify({ league_id: standings.league_id, at: input.at, changes: input.changes })
  return { standings, standingsJson, head: `${fields.slice(1, -1)},"standings":` }
}

export function standingsRecordJson (cursor: string, enc: EncodedStandingsApply): string {
  return `{"cursor":"${cursor}",${enc.head}${enc.standingsJson}}`
}

export function buildStandingsRecord (cursor: string, input: StandingsApplyInput, enc: EncodedStandingsApply): StandingsRecord {
  return { cursor, league_id: enc.standings.league_id, at: input.at, changes: input.changes, standings: enc.standings }
}

/**
 * The fixture id a log entry is filed under (the log's `f` field, what a fixture filter reads): a league's
 * table belongs to no fixture.
 */
export const NO_FIXTURE = 0

/** Compiled filter: `undefined` matches everything, otherwise league OR fixture membership. */
export type Matcher = (fixtureId: number, leagueId: number) => boolean

export function matcher (filter: StoreFilter | undefined): Matcher {
  if (filter?.leagues === undefined && filter?.fixtures === undefined) return () => true
  const leagues = new Set(filter.leagues ?? [])
  const fixtures = new Set(filter.fixtures ?? [])
  return (fixtureId, leagueId) => fixtures.has(fixtureId) || leagues.has(leagueId)
}

/** When a change happened, ms, from its `at`; the store's clock, so tests that move time move it too. */
export function appliedAt (input: Pick<ApplyInput, 'at'>): number {
  const ms = Date.parse(input.at)
  return Number.isFinite(ms) ? ms : Date.now()
}
