import { describe, expect, it, vi } from 'vitest'
import type { FixtureWithIncludes } from '../../../packages/upstream-contract/src/football.ts'
import type { FixtureInput } from '../../../src/diff/input.ts'
import {
  ERROR_BODY_SCHEMAS, parseEnvelope, parseErrorBody, parseFixture, parseFixtures
} from '../../../src/upstream/schemas.ts'
import type { UpstreamFixture } from '../../../src/upstream/schemas.ts'
import { readRecording, recordedFixture } from './recordings.ts'

const NO_RESULTS = 'No result(s) found matching your request. Either the query did not return any results or you don\'t have access to it via your current subscription.'
const rateLimit = { resets_in_seconds: 3500, remaining: 2999, requested_entity: 'Fixture' }
const freeSubscription = [{ meta: [], plans: [{ plan: 'Free', sport: 'Football', category: 'Free' }], add_ons: [], widgets: [] }]

/** A minimal live fixture as the real API sends it, base fields only. */
function baseFixture (id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    sport_id: 1,
    league_id: 271,
    season_id: 1,
    stage_id: 2,
    group_id: null,
    aggregate_id: null,
    round_id: null,
    state_id: 2,
    venue_id: null,
    name: 'A vs B',
    starting_at: '2026-11-21 20:00:00',
    result_info: null,
    leg: '1/1',
    details: null,
    length: 90,
    placeholder: false,
    has_odds: true,
    has_premium_odds: false,
    starting_at_timestamp: 1795291200,
    ...extra
  }
}

const period = { id: 9, fixture_id: 1, type_id: 1, started: 1795291260, ended: null, counts_from: 0, ticking: true, sort_order: 1, description: '1st-half', time_added: null, period_length: 45, minutes: 12, seconds: 30, has_timer: true }

describe('parseFixtures', () => {
  it('returns [] for an empty latest window: 200 with a message and no data', () => {
    const body = { message: NO_RESULTS, subscription: freeSubscription, rate_limit: rateLimit, timezone: 'UTC' }
    expect(parseFixtures(body)).toEqual([])
    expect(parseEnvelope(body).message).toBe(NO_RESULTS)
  })

  it('treats data: null and data: [] as no fixtures', () => {
    expect(parseFixtures({ data: null, timezone: 'UTC' })).toEqual([])
    expect(parseFixtures({ data: [], timezone: 'UTC' })).toEqual([])
  })

  it('accepts data as an array (the real latest) and as a single object (the docs example)', () => {
    const asArray = parseFixtures({ data: [baseFixture(1), baseFixture(2)], rate_limit: rateLimit, timezone: 'UTC' })
    const asObject = parseFixtures({ data: baseFixture(3), rate_limit: rateLimit, timezone: 'UTC' })
    expect(asArray.map((f) => f.id)).toEqual([1, 2])
    expect(asObject.map((f) => f.id)).toEqual([3])
  })

  it('maps currentPeriod and currentperiod to currentperiod', () => {
    const [camel] = parseFixtures({ data: [baseFixture(1, { currentPeriod: period })] })
    const [lower] = parseFixtures({ data: [baseFixture(1, { currentperiod: period })] })
    expect(camel?.currentperiod).toEqual(period)
    expect(lower?.currentperiod).toEqual(period)
    expect(camel).not.toHaveProperty('currentPeriod')
  })

  it('maps detailedPeriods to detailedperiods and keeps lower-cased include keys as they come', () => {
    const [camel] = parseFixtures({ data: [baseFixture(1, { detailedPeriods: [period] })] })
    const [lower] = parseFixtures({ data: [baseFixture(1, { detailedperiods: [period], weatherreport: { id: 1 } })] })
    expect(camel?.detailedperiods).toEqual([period])
    expect(lower?.detailedperiods).toEqual([period])
    expect(lower?.weatherreport).toEqual({ id: 1 })
  })

  it('accepts currentperiod: null (before kick-off, at half-time, after the end)', () => {
    const [fixture] = parseFixtures({ data: [baseFixture(1, { currentperiod: null })] })
    expect(fixture?.currentperiod).toBeNull()
  })

  it('does not require fields missing from older payloads and passes legacy ones through', () => {
    const { has_premium_odds: _omitted, ...early2023 } = baseFixture(1, { home_score: 1, last_processed_at: '2023-01-01 10:00:00' })
    const [fixture] = parseFixtures({ data: early2023 })
    expect(fixture).not.toHaveProperty('has_premium_odds')
    expect(fixture?.home_score).toBe(1)
  })

  it('skips a fixture without an integer id, reports it and keeps the others', () => {
    const anomalies = vi.fn()
    const fixtures = parseFixtures({ data: [baseFixture(1), { id: '2', name: 'no id' }, null, baseFixture(3)] }, { anomalies })
    expect(fixtures.map((f) => f.id)).toEqual([1, 3])
    const skipped = anomalies.mock.calls.map((c) => c[0]).filter((a) => a.path === 'id')
    expect(skipped).toMatchObject([{ fixtureId: null }, { fixtureId: null }])
  })

  it('keeps a fixture with no other usable field, with fallbacks, and reports each one', () => {
    const anomalies = vi.fn()
    const [fixture] = parseFixtures({ data: [{ id: 2, name: 'A vs B' }] }, { anomalies })
    expect(fixture).toMatchObject({ id: 2, league_id: 0, season_id: null, stage_id: null, state_id: 0, name: 'A vs B' })
    expect(anomalies.mock.calls.map((c) => c[0].path).sort()).toEqual(['league_id', 'participants', 'scores', 'season_id', 'stage_id', 'state_id'])
  })

  it('throws when the body is not an envelope', () => {
    expect(() => parseFixtures('<html>')).toThrow()
    expect(() => parseFixtures({ data: 'nope' })).toThrow()
  })

  it('parses the PSG–Arsenal envelope with its paid-plan subscription meta and extra includes', () => {
    const body = readRecording('psgArsenal')
    const envelope = parseEnvelope(body)
    expect(envelope.rate_limit).toEqual({ resets_in_seconds: 246, remaining: 2696, requested_entity: 'Fixture' })
    expect(envelope.subscription?.[0]?.meta).toMatchObject({ ends_at: '2026-04-03 10:29:01' })
    const [fixture] = parseFixtures(body)
    expect(fixture?.state?.name).toBe('Después de penales')
    expect(fixture?.round_id).toBeNull()
    expect(fixture?.events).toHaveLength(30)
    expect(fixture?.periods).toHaveLength(4)
    // Includes the schema does not model pass through untouched.
    expect(fixture?.lineups).toHaveLength(46)
    expect(fixture?.timeline).toHaveLength(48)
  })

  it('parses the bare Man Utd–Villa fixture with nested event types and periods', () => {
    const fixture = recordedFixture('manutdVilla')
    expect(fixture.id).toBe(19135043)
    expect(fixture.participants?.map((p) => p.meta?.location)).toEqual(['home', 'away'])
    expect(fixture.events?.[0]?.type?.developer_name).toBe('REDCARD')
    const anomalies = vi.fn()
    expect(parseFixture(readRecording('manutdVilla'), { anomalies })?.id).toBe(19135043)
    expect(anomalies).not.toHaveBeenCalled()
  })

  it('produces fixtures the normalizer accepts, as the contract type is', () => {
    // Compile-time checks: both shapes are assignable to the normalizer's input.
    const parsed: UpstreamFixture = recordedFixture('manutdVilla')
    const fromWire: FixtureInput = parsed
    const fromProvider = (f: FixtureWithIncludes): FixtureInput => f
    expect(fromWire.id).toBe(19135043)
    expect(typeof fromProvider).toBe('function')
  })
})

describe('parseEnvelope', () => {
  it('reads pagination with and without next_cursor', () => {
    const page = { count: 25, per_page: 25, current_page: 1, next_page: 'https://x/v3/football/fixtures?page=2', has_more: true }
    expect(parseEnvelope({ data: [], pagination: page }).pagination?.next_cursor).toBeUndefined()
    const cursor = { ...page, next_page: null, next_cursor: 'eyJpZCI6MTAwfQ' }
    expect(parseEnvelope({ data: [], pagination: cursor }).pagination?.next_cursor).toBe('eyJpZCI6MTAwfQ')
  })

  it('accepts subscription meta as [] (free plan) or as an object (paid plan)', () => {
    expect(parseEnvelope({ data: [], subscription: freeSubscription }).subscription?.[0]?.meta).toEqual([])
    const paid = [{ ...freeSubscription[0], meta: { trial_ends_at: null, ends_at: null, current_timestamp: 1 } }]
    expect(parseEnvelope({ data: [], subscription: paid }).subscription?.[0]?.meta).toMatchObject({ current_timestamp: 1 })
  })
})

describe('error bodies', () => {
  it('reads the real API shape for every status', () => {
    expect(parseErrorBody(401, { message: 'Unauthenticated.' })).toEqual({ message: 'Unauthenticated.' })
    expect(parseErrorBody(429, { message: 'Too Many Attempts.' })?.message).toBe('Too Many Attempts.')
    const include = { message: 'Include not found', code: 5001, link: 'https://docs.example/response-codes' }
    expect(parseErrorBody(400, include)).toEqual(include)
  })

  it('reads the provider shapes of the error answers', () => {
    const bodies = {
      400: { message: 'Bad include', errors: { include: ['comma is not allowed'] } },
      401: { error: 'Unauthorized', message: 'Invalid token' },
      403: { error: 'Forbidden', message: 'League not in plan', resource: 'league', plan_required: 'Starter' },
      404: { error: 'Not Found', message: 'No fixture', resource_type: 'fixture', resource_id: '42' },
      429: {
        error: 'Too Many Requests',
        message: 'Hourly limit reached',
        retry_after: 120,
        rate_limit: { remaining: 0, total: 3000, resets_in_seconds: 120, requested_entity: 'Fixture' }
      },
      500: { error: 'Internal Server Error', message: 'Oops', error_id: 'e-1' }
    } as const
    for (const [status, body] of Object.entries(bodies)) {
      expect(ERROR_BODY_SCHEMAS[Number(status) as keyof typeof ERROR_BODY_SCHEMAS].parse(body)).toEqual(body)
      expect(parseErrorBody(Number(status), body)).toEqual(body)
    }
  })

  it('rejects a body without a message, and falls back to the common shape for other statuses', () => {
    expect(parseErrorBody(502, '<html>Bad gateway</html>')).toBeNull()
    expect(parseErrorBody(400, { errors: { page: ['bad'] } })).toBeNull()
    expect(parseErrorBody(422, { message: 'Validation failed' })).toEqual({ message: 'Validation failed' })
  })
})
