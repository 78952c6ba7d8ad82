/**
 * The match centre of a fixture of a day (docs/protocol.md, "LiveFixture"): statistics and line-ups pushed
 * as their own kinds, applied by the client library, and at the end of the match the client's fixture is
 * the upstream's. On the memory store and on Redis.
 *
 * One match played to its end on a clock the test moves (harness.ts startSteppedGateway): the provider
 * reports only base-field changes in `livescores/latest`, as the real API does, so statistics come from
 * the poller's `livescores/inplay` reads and the reconciles. The fixture kicks off more than an hour after
 * the gateway first reads its day, so its line-ups (out an hour before kick-off) are not in that read: they
 * come later, and must come before kick-off.
 *
 * A client (`dates: [day]`, delta frames) and a raw WebSocket in full format follow the day: the full
 * frames say what each change was (and its previous values), the client's state at each version must be
 * the fixture of that full frame, and at the end its fixture must be the provider's `fixtures/{id}` as the
 * gateway's own normalizer reads it.
 */
import { TouchlineClient, type LiveFixture } from '@touchline/client'
import { afterEach, describe, expect, it } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import { DEMO_TOKENS } from '../../../packages/provider/src/index.ts'
import { LIVE_INCLUDES, parseFixture } from '../../../src/upstream/schemas.ts'
import type { Statistics } from '../../../src/wire-model/model.ts'
import { WsTestClient, type Frame } from '../../helpers/ws-client.ts'
import { waitFor } from '../../helpers/wait.ts'
import { dayOf, ENGINES, FEED_LEAD_MS, SPEED, startSteppedGateway, upcoming, type SteppedRig } from './harness.ts'

const HOUR_MS = 3_600_000
/** A match at 60x is over in under three minutes of the clock, extra time and penalties included. */
const MATCH_MS = 10 * 60_000

const kinds = (frame: Frame): string[] => frame.changes.map((c: Frame) => c.kind)

describe.each(ENGINES)('statistics and line-ups of a fixture of a day, on the %s store', (engine) => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => { for (const c of cleanups.splice(0).reverse()) await c() })

  it('pushes line-ups before kick-off and statistics as they move, applied by the client, equal to the upstream\'s at the end', async () => {
    const rig: SteppedRig = await startSteppedGateway(engine, { latestTracks: 'base' })
    cleanups.push(async () => { await rig.close() })
    const start = rig.clock.now
    const [target] = await upcoming(rig.provider, start, { from: start + HOUR_MS + 5 * 60_000, to: start + 12 * HOUR_MS })
    if (target === undefined) throw new Error('no fixture kicking off between an hour and twelve from now')
    const id = target.id
    const kickoff = target.starting_at_timestamp * 1000
    const day = dayOf(kickoff)

    await rig.step() // the reconcile at start
    await rig.step() // a `latest` poll and the read of the days
    const read = await rig.gw.store.getFixture(id)
    expect(read).toMatchObject({ state: { phase: 'scheduled' }, lineups: null, statistics: {} })

    const client = new TouchlineClient({ url: rig.gw.url, key: 'demo' }).subscribe({ dates: [day], tz: 'UTC' })
    cleanups.push(() => { client.close() })
    /** The client's fixture after each change frame of the target, by version. */
    const held = new Map<number, LiveFixture>()
    client.on('change', ({ frame, fixture }) => { if (frame.fixture_id === id) held.set(fixture.version, structuredClone(fixture)) })
    expect(await client.connect()).toEqual({ state: 'live' })
    expect(client.fixtures.get(id)).toEqual(read)
    const full = await WsTestClient.connect(rig.wsUrl)
    cleanups.push(() => { full.close() })
    await full.request({ op: 'subscribe', ref: 'day', dates: [day], tz: 'UTC', format: 'full' })
    const framesOf = (): Frame[] => full.changes().filter((f) => f.fixture_id === id)

    // Shortly before it enters the feed; then every second until it has left the live set again.
    rig.clock.now = kickoff - FEED_LEAD_MS - 10_000
    let entered = false
    const over = await rig.stepUntil(async () => {
      const entry = await rig.gw.store.getEntry(id)
      entered ||= entry?.live === true
      return entered && entry?.live === false
    }, kickoff + MATCH_MS)
    expect(over, `fixture ${id} played and out of the live set by kick-off + 10 minutes`).toBe(true)
    const final = await rig.gw.store.getFixture(id)
    await waitFor('the client and the full subscriber at the final version', () =>
      client.fixtures.get(id)?.version === final?.version && framesOf().at(-1)?.fixture.version === final?.version, 10_000)
    const frames = framesOf()

    // Line-ups: published once, while the fixture was still to kick off, as their own kind.
    const lineupFrames = frames.filter((f) => kinds(f).includes('lineups_changed'))
    expect(lineupFrames).toHaveLength(1)
    const published = lineupFrames[0] as Frame
    expect(published.changes.find((c: Frame) => c.kind === 'lineups_changed')).toMatchObject({ previous: null, lineups: { home: { starting: expect.any(Array) }, away: { starting: expect.any(Array) } } })
    expect(published.fixture.state.phase).toBe('scheduled')
    expect(Date.parse(published.at)).toBeLessThan(kickoff)
    for (const side of ['home', 'away'] as const) expect(published.fixture.lineups[side].starting).toHaveLength(11)
    const kickedOff = frames.findIndex((f) => f.fixture.state.phase === 'live')
    expect(frames.indexOf(published)).toBeLessThan(kickedOff)

    // Statistics: many frames, each naming only the types that moved, with their previous values.
    const statisticFrames = frames.filter((f) => kinds(f).includes('statistics_changed'))
    expect(statisticFrames.length).toBeGreaterThanOrEqual(5)
    for (const f of statisticFrames) {
      const change = f.changes.find((c: Frame) => c.kind === 'statistics_changed') as { statistics: Statistics, previous: Statistics }
      expect(Object.keys(change.statistics).length).toBeGreaterThan(0)
      expect(Object.keys(change.previous).sort()).toEqual(Object.keys(change.statistics).sort())
      for (const [name, pair] of Object.entries(change.statistics)) {
        expect(pair, `${name} at version ${f.fixture.version as number}`).not.toEqual(change.previous[name])
        expect(f.fixture.statistics[name]).toEqual(pair)
      }
    }

    // Applied by the client: its fixture at each version is the one the server sent whole at that version.
    for (const f of [published, ...statisticFrames]) expect(held.get(f.fixture.version as number), `version ${f.fixture.version as number}`).toEqual(f.fixture)
    expect(client.fixtures.get(id)).toEqual(final)

    // At the end: the upstream's fixture, every statistic type of both sides, and its line-ups.
    const res = await fetch(`${rig.provider.baseUrl}/football/fixtures/${id}?api_token=${DEMO_TOKENS.enterprise}&include=${LIVE_INCLUDES}`)
    const upstream = normalizeFixture(parseFixture((await res.json() as { data: unknown }).data) as never, { clockRate: SPEED })
    const mine = client.fixtures.get(id) as LiveFixture
    expect(Object.keys(upstream.statistics).length).toBeGreaterThanOrEqual(13)
    for (const pair of Object.values(upstream.statistics)) {
      expect(pair.home).not.toBeNull()
      expect(pair.away).not.toBeNull()
    }
    expect(mine.statistics).toEqual(upstream.statistics)
    expect(mine.lineups).toEqual(upstream.lineups)
    const { updated_at: _u, version: _v, ...rest } = mine
    const { updated_at: _uu, version: _vv, ...expected } = upstream
    expect(rest).toEqual(expected)
  }, 180_000)
})
