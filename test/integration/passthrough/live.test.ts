/**
 * Livescores answered from the live mirror (src/passthrough/mirror.ts) while the poller's last poll is fresh:
 * shaped exactly like the upstream's answer, no upstream call, the key's quota and scope applied; anything
 * the mirror cannot answer exactly, or a stale mirror, falls through to the cache and the upstream.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { formatInZone } from '../../../packages/upstream-contract/src/time.ts'
import { LIVE_STATE_IDS } from '../../../packages/upstream-contract/src/states.ts'
import { countRequests, expectNoLeaks, get, startPassthroughGateway, type Res, type TestGateway } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const KEYS = [{ key: 'tl-all-key', name: 'all' }, { key: 'tl-271-key', name: 'danish', leagues: [271] }]
let offsetMs = 0
const now = (): number => Date.now() + offsetMs
let t: TestGateway

const url = (path: string, key = 'tl-all-key'): string => `${t.base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`
const direct = async (path: string): Promise<Res> => await get(`${t.upstream}${path}${path.includes('?') ? '&' : '?'}api_token=demo-pro`)
const isLive = (res: Res): boolean => res.headers['x-touchline-source'] === 'live'

beforeAll(async () => {
  // Many fixtures in play, so that every shape below has something to show.
  t = await startPassthroughGateway({ keys: KEYS, overrides: { provider: { liveTarget: 12 }, passthrough: { now } } })
  // Ready once the poller has reconciled and polled `latest` at least once.
  await waitFor('livescores/latest from the live mirror', async () => isLive(await get(url('/football/livescores/latest'))), 10_000, 100)
})
afterAll(async () => { await t.close() })
afterEach(() => { expectNoLeaks() })

describe('livescores from the live mirror', () => {
  it('answers livescores, inplay and latest from the last polls, shaped like the upstream, counting on Fixture', async () => {
    const res = await get(url('/football/livescores?include=participants;scores;state'))
    expect(isLive(res)).toBe(true)
    expect(res.headers['x-cache']).toBe('hit')
    expect(res.body.rate_limit.requested_entity).toBe('Fixture')
    expect(res.body).not.toHaveProperty('pagination')
    expect(res.body.data.length).toBeGreaterThan(0)
    const upstream = await direct('/football/livescores?include=participants;scores;state')
    const byId = new Map((upstream.body.data as any[]).map((f) => [f.id, f]))
    let compared = 0
    for (const f of res.body.data) {
      const theirs = byId.get(f.id)
      if (theirs === undefined) continue
      compared++
      // Same fields in the same order; values may differ by a poll's worth of match time.
      expect(Object.keys(f)).toEqual(Object.keys(theirs))
      expect(f.participants.map((p: any) => [p.id, p.meta.location])).toEqual(theirs.participants.map((p: any) => [p.id, p.meta.location]))
    }
    expect(compared).toBeGreaterThan(0)
    const inplay = await get(url('/football/livescores/inplay'))
    expect(isLive(inplay)).toBe(true)
    for (const f of inplay.body.data) {
      expect(LIVE_STATE_IDS.has(f.state_id)).toBe(true)
      expect(f).not.toHaveProperty('events')
    }
    const latest = await get(url('/football/livescores/latest'))
    expect(isLive(latest)).toBe(true)
    expect(latest.body.data === undefined ? typeof latest.body.message : 'array').toMatch(/string|array/)
    expect(latest.body.rate_limit.remaining).toBe(res.body.rate_limit.remaining - 2)
  })

  it('applies select, timezone, base filters, order and the key\'s leagues', async () => {
    const sel = await get(url('/football/livescores?select=name,state_id&include=state'))
    expect(isLive(sel)).toBe(true)
    // Selected fields, the include, and the relation keys the upstream adds itself; nothing else.
    const allowed = new Set(['id', 'name', 'state_id', 'state', 'starting_at_timestamp'])
    for (const f of sel.body.data) {
      expect(f).toHaveProperty('name')
      expect(f).toHaveProperty('state')
      expect(f).not.toHaveProperty('result_info')
      for (const k of Object.keys(f)) expect(allowed.has(k) || k.endsWith('_id'), k).toBe(true)
    }
    const tokyo = await get(url('/football/livescores?timezone=Asia/Tokyo'))
    expect(tokyo.body.timezone).toBe('Asia/Tokyo')
    for (const f of tokyo.body.data) expect(f.starting_at).toBe(formatInZone(f.starting_at_timestamp, 'Asia/Tokyo'))
    const all = await get(url('/football/livescores'))
    const league = all.body.data[0].league_id as number
    const filtered = await get(url(`/football/livescores?filters=fixtureLeagues:${league}`))
    expect(isLive(filtered)).toBe(true)
    expect(filtered.body.data.length).toBeGreaterThan(0)
    for (const f of filtered.body.data) expect(f.league_id).toBe(league)
    const desc = await get(url('/football/livescores?order=desc'))
    const ids = (desc.body.data as any[]).map((f) => f.id as number)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const scoped = await get(url('/football/livescores', 'tl-271-key'))
    expect(isLive(scoped)).toBe(true)
    for (const f of scoped.body.data) expect(f.league_id).toBe(271)
  })

  it('makes no upstream call for live answers', async () => {
    const calls = countRequests(t.providerServer)
    try {
      for (let i = 0; i < 20; i++) expect(isLive(await get(url('/football/livescores?include=events')))).toBe(true)
      // Only the pollers' own calls reached the provider (a handful a second: livescores, the fixtures by id,
      // the days and fixtures/latest, in-play odds, the live tables), none for the 20 answers.
      const pollers = ['/v3/football/livescores', '/v3/football/fixtures/multi', '/v3/football/fixtures/between/', '/v3/football/fixtures/latest', '/v3/football/odds/inplay/', '/v3/football/standings/live/leagues/']
      expect(calls.paths.filter((p) => !pollers.some((prefix) => p.startsWith(prefix)))).toEqual([])
      expect(calls.count('/football/livescores')).toBeLessThan(10)
    } finally {
      calls.stop()
    }
  })

  it('falls through for what the mirror cannot answer exactly', async () => {
    for (const query of ['include=events.player', 'include=venue', 'filters=eventTypes:14', 'include=events:minute']) {
      const res = await get(url(`/football/livescores?${query}`))
      expect(res.status, query).toBe(200)
      expect(isLive(res), query).toBe(false)
    }
  })

  it('falls through once the last poll is older than 10 s', async () => {
    await t.gw.poller.stop()
    offsetMs += 11_000
    const res = await get(url('/football/livescores'))
    expect(res.status).toBe(200)
    expect(isLive(res)).toBe(false)
    expect(res.headers['x-cache']).toBe('miss')
  })
})
