/**
 * Turns the live mirror's fixtures (upstream records with every `LIVE_INCLUDES` include) into what a client
 * asked for, exactly as the upstream would render them, or says it cannot (undefined), in which case the
 * request goes to the cache and the upstream instead. Answered here:
 * - `include`: any of participants, scores, events, periods, state, top-level only, without field lists;
 * - `select`: base fields, as the upstream picks them (`id` and relation keys always kept);
 * - `filters`: fixtureLeagues, fixtureStages, fixtureSeason, fixtureStates, venues (base-field filters);
 * - `timezone`: `starting_at` rewritten from `starting_at_timestamp`;
 * - `order`: desc reverses the id order.
 * Anything else (nested includes such as `events.player`, other includes, eventTypes and the other
 * include-level filters, participantSearch, todayDate) falls through.
 */
import type { ParsedQuery } from '@touchline/upstream-contract/query'
import { pickSelected } from '@touchline/upstream-contract/select'
import { formatInZone } from '@touchline/upstream-contract/time'
import type { Rec } from './mirror.ts'
import { LIVE_INCLUDES } from '../upstream/schemas.ts'

/** Include names the mirror holds; their response keys are the same words (already lower-case). */
const HELD = new Set(LIVE_INCLUDES.split(';'))

const BASE_FILTERS: Readonly<Record<string, string>> = {
  fixtureleagues: 'league_id',
  fixturestages: 'stage_id',
  fixtureseason: 'season_id',
  fixturestates: 'state_id',
  venues: 'venue_id'
}

/** True when the mirror can answer this query exactly. */
function liveAnswerable (query: ParsedQuery): boolean {
  for (const node of query.includes) {
    if (!HELD.has(node.name) || node.children.length > 0 || node.fields !== null) return false
  }
  for (const name of query.filters.keys()) if (BASE_FILTERS[name] === undefined) return false
  return true
}

function shapeOne (fixture: Rec, query: ParsedQuery): Rec {
  let base: Rec = {}
  for (const [field, value] of Object.entries(fixture)) if (!HELD.has(field)) base[field] = value
  if (query.timezone !== 'UTC' && typeof base.starting_at_timestamp === 'number') {
    base.starting_at = formatInZone(base.starting_at_timestamp, query.timezone)
  }
  base = pickSelected(base, query.select) as Rec
  for (const node of query.includes) base[node.key] = fixture[node.key] ?? null
  return base
}

/** The fixtures rendered for `query`, or undefined when the mirror cannot answer it exactly. */
export function shapeLive (fixtures: readonly Rec[], query: ParsedQuery): Rec[] | undefined {
  if (!liveAnswerable(query)) return undefined
  let out = fixtures
  for (const [name, filter] of query.filters) {
    const field = BASE_FILTERS[name] as string
    const wanted = new Set(filter.values.map(Number))
    out = out.filter((f) => wanted.has(Number(f[field])))
  }
  const shaped = out.map((f) => shapeOne(f, query))
  return query.order === 'desc' ? shaped.reverse() : shaped
}
