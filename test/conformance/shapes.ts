/** Field-set checks of the core records, leagues, seasons, stages and fixtures, reused by the endpoint tests. */
import { expect } from 'vitest'
import { BILLING_CYCLE, DATE, DATETIME, DECIMAL_TEXT, URL_TEXT, expectMatch, expectType, isInt } from './context.ts'

export const STAGE_TYPES = [223, 224, 225]
export const LEAGUE_TYPES = ['league', 'phase']
/** League sub-types; the docs do not show the wire spelling of the last three, so every plausible spelling passes. */
export const LEAGUE_SUB_TYPES = ['domestic', 'domestic_cup', 'international', 'cup_international', 'play-offs', 'play_offs', 'playoffs', 'friendly']
/** Live states: those the real API flagged `is_live` while its states carried flags (2023). */
export const LIVE_STATES = [2, 3, 4, 6, 9, 11, 18, 21, 22, 23, 25, 26]

export function checkCity (c: any): void {
  const w = `City ${c?.id as number}`
  expectType(c, 'id', 'int', w)
  expectType(c, 'country_id', 'int', w)
  expectType(c, 'region_id', 'int', w)
  expectType(c, 'name', 'string', w)
  expectMatch(c, 'latitude', DECIMAL_TEXT, w)
  expectMatch(c, 'longitude', DECIMAL_TEXT, w)
  expectType(c, 'geonameid', 'int', w)
}

export function checkContinent (c: any): void {
  const w = `Continent ${c?.id as number}`
  expectType(c, 'id', 'int', w)
  expectType(c, 'name', 'string', w)
  expectMatch(c, 'code', /^[A-Za-z]{2}$/, w)
}

export function checkCountry (c: any): void {
  const w = `Country ${c?.id as number}`
  expectType(c, 'id', 'int', w)
  expectType(c, 'continent_id', 'int', w)
  expectType(c, 'name', 'string', w)
  expectType(c, 'official_name', 'string', w)
  expectMatch(c, 'fifa_name', /^[A-Za-z]{3}$/, w)
  expectMatch(c, 'iso2', /^[A-Za-z]{2}$/, w)
  expectMatch(c, 'iso3', /^[A-Za-z]{3}$/, w)
  expectMatch(c, 'latitude', DECIMAL_TEXT, w)
  expectMatch(c, 'longitude', DECIMAL_TEXT, w)
  expectType(c, 'geonameid', 'int', w)
  expectType(c, 'borders', 'array', w)
  for (const b of c.borders as unknown[]) expect(b, `${w}.borders[] are three-letter codes`).toMatch(/^[A-Za-z]{3}$/)
  expectMatch(c, 'image_path', URL_TEXT, w)
}

export function checkLeague (l: any): void {
  const w = `League ${l?.id as number}`
  expectType(l, 'id', 'int', w)
  expectType(l, 'sport_id', 'int', w)
  expectType(l, 'country_id', 'int', w)
  expectType(l, 'name', 'string', w)
  expectType(l, 'active', 'boolean', w)
  expectType(l, 'short_code', 'string', w)
  expectMatch(l, 'image_path', URL_TEXT, w)
  expect(LEAGUE_TYPES, `${w}.type`).toContain(l.type)
  expect(LEAGUE_SUB_TYPES, `${w}.sub_type`).toContain(l.sub_type)
  expectMatch(l, 'last_played_at', DATETIME, w)
  expectType(l, 'category', 'int', w)
  expectType(l, 'has_jerseys', 'boolean', w)
}

export function checkSeason (s: any): void {
  const w = `Season ${s?.id as number}`
  expectType(s, 'id', 'int', w)
  expectType(s, 'sport_id', 'int', w)
  expectType(s, 'league_id', 'int', w)
  expectType(s, 'tie_breaker_rule_id', 'int', w)
  expectType(s, 'name', 'string', w)
  expect(s.name, `${w}.name is a year or a two-year span`).toMatch(/^\d{4}([/-]\d{2,4})?$/)
  expectType(s, 'finished', 'boolean', w)
  expectType(s, 'pending', 'boolean', w)
  expectType(s, 'is_current', 'boolean', w)
  expectMatch(s, 'starting_at', DATE, w)
  expectMatch(s, 'ending_at', DATE, w)
  expect(Object.hasOwn(s, 'standings_recalculated_at'), `${w} has standings_recalculated_at`).toBe(true)
  if (s.standings_recalculated_at !== null) expectMatch(s, 'standings_recalculated_at', DATETIME, w)
  expectType(s, 'games_in_current_week', 'boolean', w)
}

export function checkStage (s: any): void {
  const w = `Stage ${s?.id as number}`
  expectType(s, 'id', 'int', w)
  expectType(s, 'sport_id', 'int', w)
  expectType(s, 'league_id', 'int', w)
  expectType(s, 'season_id', 'int', w)
  expectType(s, 'type_id', 'int', w)
  expect(STAGE_TYPES, `${w}.type_id`).toContain(s.type_id)
  expectType(s, 'name', 'string', w)
  expectType(s, 'sort_order', 'int', w)
  expectType(s, 'finished', 'boolean', w)
  expectType(s, 'is_current', 'boolean', w)
  expectMatch(s, 'starting_at', DATE, w)
  expectMatch(s, 'ending_at', DATE, w)
  expectType(s, 'games_in_current_week', 'boolean', w)
  expect(Object.hasOwn(s, 'tie_breaker_rule_id'), `${w} has tie_breaker_rule_id`).toBe(true)
  expect(s.tie_breaker_rule_id === null || isInt(s.tie_breaker_rule_id), `${w}.tie_breaker_rule_id is integer or null`).toBe(true)
}

/** Fixture base fields, as the real API's fixture endpoints document and send them. */
export function checkFixture (f: any): void {
  const w = `Fixture ${f?.id as number}`
  for (const k of ['id', 'sport_id', 'league_id', 'season_id', 'stage_id', 'state_id', 'starting_at_timestamp']) expectType(f, k, 'int', w)
  for (const k of ['group_id', 'aggregate_id', 'round_id', 'venue_id']) {
    expect(Object.hasOwn(f, k), `${w} has ${k}`).toBe(true)
    expect(f[k] === null || isInt(f[k]), `${w}.${k} is integer or null`).toBe(true)
  }
  expect(f.starting_at === null || DATETIME.test(f.starting_at), `${w}.starting_at is YYYY-MM-DD HH:MM:SS: ${f.starting_at as string}`).toBe(true)
  expectType(f, 'leg', 'string', w)
  for (const k of ['placeholder', 'has_odds']) expectType(f, k, 'boolean', w)
}

export function checkSubscription (s: any): void {
  expect(s?.meta, 'subscription.meta is an object').toBeTypeOf('object')
  expectType(s.meta, 'current_timestamp', 'int', 'subscription.meta')
  expectMatch(s.meta, 'next_billing_cycle', BILLING_CYCLE, 'subscription.meta')
  expectType(s, 'plans', 'array', 'subscription')
  expectType(s, 'add_ons', 'array', 'subscription')
  expectType(s, 'widgets', 'array', 'subscription')
}

const nullableText = (o: any, field: string, w: string): void => {
  expect(Object.hasOwn(o, field), `${w} has field ${field}`).toBe(true)
  expect(o[field] === null || typeof o[field] === 'string', `${w}.${field} should be a string or null, got ${JSON.stringify(o[field])}`).toBe(true)
}

/** An odd row of the odds feeds: prices as strings, settlement flags as booleans; in-play rows also carry `suspended`. */
export function checkOdd (o: any, inplay: boolean): void {
  const w = `Odd ${o?.id as number}`
  for (const k of ['id', 'fixture_id', 'market_id', 'bookmaker_id']) expectType(o, k, 'int', w)
  for (const k of ['label', 'name', 'market_description']) expectType(o, k, 'string', w)
  expectMatch(o, 'value', DECIMAL_TEXT, w)
  expectMatch(o, 'dp3', DECIMAL_TEXT, w)
  expectMatch(o, 'probability', /^\d+(\.\d+)?%$/, w)
  expectMatch(o, 'fractional', /^\d+\/\d+$/, w)
  expectMatch(o, 'american', /^-?\d+$/, w)
  for (const k of ['winning', 'stopped', ...(inplay ? ['suspended'] : [])]) expectType(o, k, 'boolean', w)
  for (const k of ['total', 'handicap', 'participants', 'latest_bookmaker_update']) nullableText(o, k, w)
}
