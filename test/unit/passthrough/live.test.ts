import { describe, expect, it } from 'vitest'
import { matchEndpoint, parseQuery } from '../../../packages/upstream-contract/src/query.ts'
import { createLiveMirror } from '../../../src/passthrough/mirror.ts'
import { shapeLive } from '../../../src/passthrough/mirror-shape.ts'
import type { UpstreamClient } from '../../../src/upstream/index.ts'
import { LIVE_INCLUDES } from '../../../src/upstream/schemas.ts'

const fixture = (id: number, stateId: number, leagueId = 271): Record<string, unknown> => ({
  id,
  league_id: leagueId,
  state_id: stateId,
  name: `Match ${id}`,
  starting_at: '2026-11-21 20:00:00',
  starting_at_timestamp: Date.UTC(2026, 10, 21, 20, 0, 0) / 1000,
  participants: [{ id: 1 }],
  scores: [],
  events: [{ id: 5 }],
  periods: [],
  state: { id: stateId }
})

/** An upstream client whose `get` answers with the envelope queued for a path. */
function fakeUpstream (answers: Map<string, unknown[]>): UpstreamClient {
  return {
    get: async (path: string) => ({ data: [], envelope: { data: answers.get(path) ?? [], subscription: [{ plans: [] }] }, status: 200, durationMs: 1 }),
    paginate: async function * () {},
    getRaw: async () => ({ status: 200, headers: {}, body: Buffer.from('') }),
    close: async () => {}
  } as unknown as UpstreamClient
}

function query (q: Record<string, string> = {}) {
  const match = matchEndpoint('/football/livescores')
  if (match === undefined) throw new Error('no endpoint')
  const parsed = parseQuery(match.endpoint, q)
  if (!parsed.ok) throw new Error(parsed.error.body.message)
  return parsed.query
}

describe('live mirror', () => {
  it('answers from the poller\'s reconcile and latest payloads while they are fresh', async () => {
    let t = 1_000_000
    const answers = new Map<string, unknown[]>([
      ['/football/livescores', [fixture(3, 2), fixture(1, 1), fixture(2, 5)]],
      ['/football/livescores/latest', [fixture(2, 5), fixture(4, 22)]]
    ])
    const mirror = createLiveMirror({ now: () => t })
    const upstream = mirror.observe(fakeUpstream(answers))
    expect(mirror.fixtures('livescores.all', t)).toBeUndefined()
    await upstream.get('/football/livescores', { include: LIVE_INCLUDES })
    expect(mirror.fixtures('livescores.all', t)?.fixtures.map((f) => f.id)).toEqual([1, 2, 3])
    expect(mirror.fixtures('livescores.latest', t), 'no latest poll yet').toBeUndefined()
    t += 1000
    await upstream.get('/football/livescores/latest', { include: LIVE_INCLUDES })
    expect(mirror.fixtures('livescores.all', t)?.fixtures.map((f) => f.id)).toEqual([1, 2, 3, 4])
    expect(mirror.fixtures('livescores.inplay', t)?.fixtures.map((f) => f.id)).toEqual([3, 4])
    expect(mirror.fixtures('livescores.latest', t)?.fixtures.map((f) => f.id)).toEqual([2, 4])
    expect(mirror.fixtures('livescores.all', t)?.subscription).toEqual([{ plans: [] }])
    expect(mirror.fixtures('livescores.all', t + 10_001), 'stale after 10 s').toBeUndefined()
  })

  it('ignores payloads that are not the poller\'s full feed', async () => {
    const mirror = createLiveMirror({ now: () => 0 })
    const upstream = mirror.observe(fakeUpstream(new Map([['/football/livescores', [fixture(1, 2)]]])))
    await upstream.get('/football/livescores', { include: LIVE_INCLUDES, filters: 'fixtureLeagues:271' })
    await upstream.get('/football/livescores', { include: 'participants' })
    expect(mirror.freshness()).toBeNull()
  })
})

describe('shapeLive', () => {
  const fixtures = [fixture(1, 2, 271), fixture(2, 22, 501)]

  it('keeps only the includes asked for, in the order asked', () => {
    const [one] = shapeLive(fixtures, query({ include: 'state;participants' })) ?? []
    expect(Object.keys(one ?? {})).toEqual(['id', 'league_id', 'state_id', 'name', 'starting_at', 'starting_at_timestamp', 'state', 'participants'])
    expect(shapeLive(fixtures, query())?.[0]).not.toHaveProperty('events')
  })

  it('applies select, timezone, base filters and order', () => {
    // The id and relation keys stay, as the upstream adds them (docs/upstream.md, "Known quirks"); other fields go.
    expect(shapeLive(fixtures, query({ select: 'name' }))?.[0]).toEqual({ id: 1, name: 'Match 1', league_id: 271, state_id: 2, starting_at_timestamp: 1795291200 })
    expect(shapeLive(fixtures, query({ timezone: 'Europe/Copenhagen' }))?.[0]?.starting_at).toBe('2026-11-21 21:00:00')
    expect(shapeLive(fixtures, query({ filters: 'fixtureLeagues:501' }))?.map((f) => f.id)).toEqual([2])
    expect(shapeLive(fixtures, query({ filters: 'fixtureStates:2' }))?.map((f) => f.id)).toEqual([1])
    expect(shapeLive(fixtures, query({ order: 'desc' }))?.map((f) => f.id)).toEqual([2, 1])
  })

  it('declines what it cannot answer exactly', () => {
    expect(shapeLive(fixtures, query({ include: 'events.player' }))).toBeUndefined()
    expect(shapeLive(fixtures, query({ include: 'venue' }))).toBeUndefined()
    expect(shapeLive(fixtures, query({ include: 'events:minute' }))).toBeUndefined()
    expect(shapeLive(fixtures, query({ filters: 'eventTypes:14' }))).toBeUndefined()
  })
})
