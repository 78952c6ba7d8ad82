/**
 * How long a cached answer stays good, by kind of data (docs/passthrough.md, "Cache"). The numbers trade freshness against the
 * upstream budget: reference data changes a few times a day, fixtures change during matches, livescores
 * change every few seconds (and are normally answered from the live mirror, see live.ts).
 */
import type { Endpoint } from '@touchline/upstream-contract/endpoints'
import type { IncludeNode } from '@touchline/upstream-contract/query'
import type { Kind } from '@touchline/upstream-contract/resources'

export interface TtlPolicy {
  /** Core data, leagues, seasons, stages, rounds, teams, people, venues, states, account listings. @default 1 h */
  referenceMs: number
  /** Fixture lists and records, schedules, anything including fixtures or their live parts. @default 15 s */
  fixtureMs: number
  /** Livescores when the live mirror cannot answer, fixtures/latest, leagues/live. @default 3 s */
  liveMs: number
  /** Standings tables (they move when a match ends) and the paid extras. @default 2 min */
  standingsMs: number
  /**
   * Upstream 404s for an id: long enough to absorb a client hammering an unknown id, short enough that a
   * record created upstream shows up soon. @default 30 s
   */
  notFoundMs: number
  /**
   * An upstream 4xx for a path or name the catalogue does not know (route.ts): a wrong name then costs one
   * upstream call an hour, however often it is asked. @default 1 h
   */
  unknownRejectionMs: number
}

export const DEFAULT_TTL: TtlPolicy = {
  referenceMs: 60 * 60_000,
  fixtureMs: 15_000,
  // Below the upstream's 10 s `latest` window and the poller's pace, so a client polling through the gateway
  // sees what a direct client would, give or take a poll.
  liveMs: 3000,
  standingsMs: 2 * 60_000,
  notFoundMs: 30_000,
  unknownRejectionMs: 60 * 60_000
}

const LIVE_ENDPOINTS = new Set(['livescores.all', 'livescores.inplay', 'livescores.latest', 'fixtures.latest', 'leagues.live', 'expected.fixtures'])
/** In-play odds move by the second, and every odds feed's `latest` is a 10-second window: live, like livescores. */
const isLiveOdds = (id: string): boolean => id.startsWith('odds.inplay.') || (id.startsWith('odds.') && id.endsWith('.latest'))
/** Kinds whose records change while matches are played. */
const MOVING_KINDS: ReadonlySet<Kind> = new Set([
  'fixture', 'score', 'event', 'period', 'statistic', 'xg', 'odd', 'prediction',
  'lineup', 'lineupDetail', 'formation', 'commentary', 'trend', 'pressure', 'ballCoordinate', 'matchfact', 'weather', 'expectedLineup'
])
/** Kinds that move when a match ends, like standings. */
const TABLE_KINDS: ReadonlySet<Kind> = new Set(['standing', 'correction', 'topscorer', 'seasonStatistic'])

/** A league's `inplay`/`today` includes are live lists, whatever the league record itself is. */
const LIVE_INCLUDE_NAMES = new Set(['inplay', 'today'])

function includesMoving (nodes: readonly IncludeNode[]): 'live' | 'moving' | undefined {
  let found: 'live' | 'moving' | undefined
  for (const node of nodes) {
    if (LIVE_INCLUDE_NAMES.has(node.name)) return 'live'
    if (MOVING_KINDS.has(node.target)) found = 'moving'
    const nested = includesMoving(node.children)
    if (nested === 'live') return nested
    found ??= nested
  }
  return found
}

/** TTL of an answer to `endpoint` with these includes: the shortest that any part of it calls for. */
export function ttlFor (endpoint: Endpoint, includes: readonly IncludeNode[], policy: TtlPolicy = DEFAULT_TTL): number {
  if (LIVE_ENDPOINTS.has(endpoint.id) || isLiveOdds(endpoint.id)) return policy.liveMs
  let ttl: number
  if (TABLE_KINDS.has(endpoint.kind)) ttl = policy.standingsMs
  else if (MOVING_KINDS.has(endpoint.kind) || endpoint.entity === 'Schedule') ttl = policy.fixtureMs
  else if (endpoint.id === 'leagues.date' || endpoint.id.startsWith('predictions.') || endpoint.id.startsWith('odds.')) ttl = policy.standingsMs
  else ttl = policy.referenceMs
  const moving = includesMoving(includes)
  if (moving === 'live') return Math.min(ttl, policy.liveMs)
  if (moving === 'moving') return Math.min(ttl, policy.fixtureMs)
  return ttl
}

/**
 * TTL of a forwarded answer (route.ts): that of the catalogue endpoint it is closest to, and never longer
 * than moving data's, since what an unknown name adds may move.
 */
export function forwardedTtl (base: Endpoint | undefined, policy: TtlPolicy = DEFAULT_TTL): number {
  return Math.min(base === undefined ? policy.fixtureMs : ttlFor(base, [], policy), policy.fixtureMs)
}
