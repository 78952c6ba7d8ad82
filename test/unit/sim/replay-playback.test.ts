import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createProvider } from '../../../packages/provider/src/index.ts'
import { REPLAY_GAP_S } from '../../../packages/provider/src/replays.ts'
import type { FixtureRecord, Observation } from '../../../packages/provider/src/sim/replay-input.ts'
import { createPlayback } from '../../../packages/provider/src/sim/replay-playback.ts'

const RECORDED = new URL('../../fixtures/upstream/recorded/fixture-19135043-manutd-villa.json', import.meta.url)
const json = JSON.parse(readFileSync(RECORDED, 'utf8')) as { data?: FixtureRecord } & FixtureRecord
const FINAL = (json.data ?? json) as FixtureRecord & { events: unknown[], starting_at_timestamp: number }
const ID = FINAL.id
const KICKOFF_MS = FINAL.starting_at_timestamp * 1000
/** The recording starts 15 minutes before kick-off. */
const T0 = KICKOFF_MS - 900_000
const FIRST_HALF = { id: 1, fixture_id: ID, type_id: 1, started: FINAL.starting_at_timestamp, ended: null, counts_from: 0, ticking: true, sort_order: 1, description: '1st-half', time_added: null, period_length: 45, minutes: 10, seconds: 0, has_timer: false }

/** A match day as the recorder saw it: scheduled, kicked off, half-time (a `latest` without events), full time, then by id. */
const observations: Observation[] = [
  { atMs: T0, inFeed: true, fixture: { ...FINAL, state_id: 1, result_info: null, events: [], scores: [], periods: [] } },
  { atMs: T0 + 1_500_000, inFeed: true, fixture: { ...FINAL, state_id: 2, result_info: null, events: FINAL.events.slice(0, 2), periods: [FIRST_HALF] } },
  { atMs: T0 + 3_000_000, inFeed: true, fixture: { id: ID, state_id: 3 } },
  { atMs: T0 + 6_000_000, inFeed: true, fixture: FINAL },
  { atMs: T0 + 6_900_000, inFeed: false, fixture: FINAL }
]

const SPEED = 100
const START = 1_800_000_000_000
/** Real time at which recorded time `recordedMs` plays. */
const real = (recordedMs: number): number => START + (recordedMs - T0) / SPEED

/** The whole feed was fetched at the start, at full time, and ten minutes later (without the fixture). */
const FEED_LISTS = [T0, T0 + 6_000_000, T0 + 6_600_000]

describe('a recording played back', () => {
  const playback = createPlayback(observations, { startMs: START, speed: SPEED, feedLists: FEED_LISTS })

  it('shows at each instant what the last observation before it showed, and ends in the last one', () => {
    const at = (recordedMs: number) => playback.view(ID, real(recordedMs))
    expect(playback.view(ID, START - 60_000)?.state_id).toBe(1)
    expect(at(T0)?.events).toEqual([])
    expect(at(T0 + 1_500_000 - 1000)?.state_id).toBe(1)
    expect(at(T0 + 1_500_000)?.state_id).toBe(2)
    expect(at(T0 + 1_500_000)?.events.map((e) => e.id)).toEqual(FINAL.events.slice(0, 2).map((e) => (e as { id: number }).id))
    // Half-time came from a `latest` without includes: what was known stays.
    expect(at(T0 + 3_000_000)?.state_id).toBe(3)
    expect(at(T0 + 3_000_000)?.events).toHaveLength(2)
    const end = at(T0 + 6_000_000)
    expect(end?.state_id).toBe(5)
    expect(end?.result_info).toBe(FINAL.result_info)
    expect(end?.events).toHaveLength(FINAL.events.length)
    expect(end?.scores).toEqual(FINAL.scores)
    expect(end?.participantsMeta.home.winner).toBe(true)
    expect(playback.view(ID, real(T0 + 100_000_000))).toEqual(end)
  })

  it('moves kick-off and period times onto the replay clock', () => {
    const kickoffS = Math.floor(real(KICKOFF_MS) / 1000)
    expect(playback.kickoff(ID)).toBe(kickoffS)
    const view = playback.view(ID, real(T0 + 1_500_000))
    expect(view?.periods[0]?.started).toBe(kickoffS)
    expect(view?.currentperiod?.id).toBe(1)
  })

  it('keeps the fixture in the feed from its first sighting to the first whole feed without it, and in latest for 10 s after a change', () => {
    expect(playback.livescores(START - 1)).toEqual([])
    expect(playback.livescores(START)).toEqual([ID])
    expect(playback.livescores(real(T0 + 6_600_000) - 1)).toEqual([ID])
    expect(playback.livescores(real(T0 + 6_600_000))).toEqual([])
    // Never seen leaving the feed: in it to the end.
    expect(createPlayback(observations, { startMs: START, speed: SPEED, feedLists: [T0] }).livescores(real(T0 + 100_000_000))).toEqual([ID])
    expect(playback.inplay(real(T0 + 1_500_000))).toEqual([ID])
    expect(playback.inplay(real(T0 + 6_000_000))).toEqual([])
    expect(playback.latest(START, 'all')).toEqual([])
    expect(playback.latest(real(T0 + 1_500_000), 'all')).toEqual([ID])
    expect(playback.latest(real(T0 + 1_500_000) + 9_999, 'all')).toEqual([ID])
    expect(playback.latest(real(T0 + 1_500_000) + 10_000, 'all')).toEqual([])
    expect(playback.lastChangedAt(ID, real(T0 + 6_900_000))).toBe(real(T0 + 6_000_000))
  })
})

describe('a running clock', () => {
  it('shows in the view but is no change for latest', () => {
    const ticking = { ...FINAL, state_id: 2, periods: [FIRST_HALF] }
    const playback = createPlayback([
      { atMs: T0, inFeed: true, fixture: ticking },
      { atMs: T0 + 60_000, inFeed: true, fixture: { ...ticking, periods: [{ ...FIRST_HALF, minutes: 11 }] } }
    ], { startMs: START, speed: SPEED })
    expect(playback.view(ID, real(T0 + 60_000))?.periods[0]?.minutes).toBe(11)
    expect(playback.latest(real(T0 + 60_000), 'all')).toEqual([])
  })
})

describe('the provider replaying a recording', () => {
  it('serves the recorded fixture by id and in livescores as it was, ending as recorded', async () => {
    let now = Date.parse('2026-11-24T15:00:00.000Z')
    const lines = observations.map((o) => ({
      at: new Date(o.atMs).toISOString(),
      path: o.inFeed ? '/football/livescores/latest' : `/football/fixtures/${ID}`,
      status: 200,
      body: { data: o.inFeed ? [o.fixture] : o.fixture }
    }))
    // The whole feed, without the fixture, just before it was fetched by id.
    lines.splice(-1, 0, { at: new Date(T0 + 6_600_000).toISOString(), path: '/football/livescores', status: 200, body: { data: [] } })
    const { app } = createProvider({ now: () => now, simSpeed: SPEED, replay: [{ file: 'day.ndjson', json: lines }] })
    const start = now + REPLAY_GAP_S * 1000
    const get = async (path: string) => (await app.inject({ url: `/v3/football/${path}${path.includes('?') ? '&' : '?'}api_token=demo-enterprise` })).json() as { data: Array<Record<string, any>> | Record<string, any> }
    const byId = async () => (await get(`fixtures/${ID}?include=events;participants`)).data as Record<string, any>
    const inFeed = async () => ((await get('livescores')).data as Array<{ id: number }>).some((f) => f.id === ID)

    expect((await byId()).state_id).toBe(1)
    expect(await inFeed()).toBe(false)
    now = start + 1_500_000 / SPEED
    expect(await inFeed()).toBe(true)
    const live = await byId()
    expect([live.state_id, live.events.length, live.participants.map((p: { id: number }) => p.id)]).toEqual([2, 2, [14, 15]])
    expect(live.starting_at_timestamp).toBe(Math.floor((start + 900_000 / SPEED) / 1000))
    now = start + 6_900_000 / SPEED
    expect(await inFeed()).toBe(false)
    const end = await byId()
    expect([end.state_id, end.result_info, end.events.length]).toEqual([5, FINAL.result_info, FINAL.events.length])
    await app.close()
  })
})
