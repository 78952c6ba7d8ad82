/**
 * Live odds end to end over real parts (docs/protocol.md, "Odds"): the embedded provider prices a match on a
 * clock the test moves; the pollers step through it; subscribers over real WebSockets take odds in both
 * formats, with and without conflation. A goal suspends every market, nothing moves until they reopen at new
 * prices, full time settles them with the right winners, every subscriber ends with the provider's odds, and
 * neither poller touches the other's bucket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { marketKey } from '@touchline/core'
import { standingGoals, suspensions } from '../../../packages/provider/src/odds/line.ts'
import type { FixtureOdds, OddsChange } from '../../../src/wire-model/model.ts'
import { serverFrameErrors } from '../../helpers/protocol-docs.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { WsTestClient } from '../../helpers/ws-client.ts'
import { OddsMirror, plannedMatch, providerMarkets, startRig, startUpstream, subscriber, type Planned, type Rig, type Upstream } from './harness.ts'

const refOf = (c: OddsChange): string => 'market' in c ? marketKey(c.market) : 'line' in c ? marketKey(c) : ''

let up: Upstream
let rig: Rig
let match: Planned
const subs: Record<'full' | 'delta' | 'fullConflated' | 'deltaConflated', { ws: WsTestClient, mirror: OddsMirror }> = {} as never

beforeAll(async () => {
  up = await startUpstream()
  rig = await startRig(up)
  match = plannedMatch(up)
  // The board before kick-off: the match is in the live feed, without odds yet.
  await rig.runTo(match.at((match.line.start ?? 0) - 90))
  subs.full = await subscriber(rig, {})
  subs.delta = await subscriber(rig, { format: 'delta' })
  subs.fullConflated = await subscriber(rig, { conflate_ms: 1000 })
  subs.deltaConflated = await subscriber(rig, { format: 'delta', conflate_ms: 1000 })
  await rig.runTo(match.at((match.line.end ?? 0) + 60))
}, 120_000)

afterAll(async () => {
  for (const s of Object.values(subs)) s.ws.ws.close()
  await rig?.close()
  await up?.close()
})

describe('odds through a match, over the embedded provider', () => {
  it('a goal suspends every market of its fixture at once; nothing moves until they reopen, at new prices', () => {
    const sets = subs.full.mirror.changesOf(match.id)
    const images = subs.full.mirror.frames.filter((f) => f.fixture_id === match.id).map((f) => f.odds as FixtureOdds)
    const stop = sets.findIndex((changes) => changes.some((c) => c.kind === 'market_suspended'))
    expect(stop).toBeGreaterThan(0)
    // Every market open before the goal, suspended in that one change set.
    const openBefore = (images[stop - 1] as FixtureOdds).markets.filter((m) => m.status === 'open').map(marketKey)
    expect(openBefore.length).toBeGreaterThanOrEqual(10)
    const stopped = (sets[stop] as OddsChange[]).filter((c) => c.kind === 'market_suspended').map(refOf)
    expect(stopped.sort()).toEqual(openBefore.sort())
    const reopen = sets.findIndex((changes, i) => i > stop && changes.some((c) => c.kind === 'market_reopened'))
    expect(reopen).toBeGreaterThan(stop)
    // While suspended: no price moves, in the stop's own change set after the stop either.
    const stopSet = sets[stop] as OddsChange[]
    expect(stopSet.slice(stopSet.findIndex((c) => c.kind === 'market_suspended')).some((c) => c.kind === 'odds_changed')).toBe(false)
    for (const changes of sets.slice(stop + 1, reopen)) expect(changes.some((c) => c.kind === 'odds_changed')).toBe(false)
    // Reopened at new prices: the scorer's win shortened at both bookmakers.
    const goal = standingGoals(match.line)[0] as NonNullable<ReturnType<typeof standingGoals>[0]>
    const label = goal.side === 'home' ? '1' : '2'
    const moves = (sets[reopen] as OddsChange[]).filter((c): c is Extract<OddsChange, { kind: 'odds_changed' }> => c.kind === 'odds_changed' && c.market_id === 1 && c.selection.label === label)
    expect(moves.map((c) => [c.bookmaker_id, c.direction])).toEqual([[2, 'down'], [34, 'down']])
    expect(suspensions(match.line)[0]?.from).toBe(goal.at)
  })

  it('settles every market at full time, the result by the score after 90 minutes', async () => {
    const settled = subs.full.mirror.changesOf(match.id).flat().filter((c): c is Extract<OddsChange, { kind: 'market_settled' }> => c.kind === 'market_settled')
    const image = subs.full.mirror.images.get(match.id) as FixtureOdds
    expect(image.markets.every((m) => m.status === 'stopped')).toBe(true)
    // Each market settled once, and every market of the image was.
    expect(new Set(settled.map(refOf)).size).toBe(settled.length)
    expect(settled.map(refOf).sort()).toEqual(image.markets.map(marketKey).sort())
    const goals = standingGoals(match.line).filter((g) => g.at < (match.line.end ?? 0))
    const home = goals.filter((g) => g.side === 'home').length
    const away = goals.length - home
    const winner = home > away ? '1' : home === away ? 'X' : '2'
    for (const bookmaker of [2, 34]) {
      expect(settled.find((c) => c.bookmaker_id === bookmaker && c.market_id === 1)?.winning.map((w) => w.label)).toEqual([winner])
    }
    expect(settled.find((c) => c.bookmaker_id === 2 && c.market_id === 14)?.winning.map((w) => w.label)).toEqual([home > 0 && away > 0 ? 'Yes' : 'No'])
  })

  it('leaves every subscriber, full or delta, conflated or not, with the provider\'s odds of every fixture', async () => {
    // Conflated frames still held go out at the end of their interval.
    await waitFor('conflated odds sent', () => Object.values(subs).every((s) => s.mirror.images.size >= subs.full.mirror.images.size), 5000)
    await new Promise((resolve) => setTimeout(resolve, 1200))
    const fixtures = [...subs.full.mirror.images.keys()]
    expect(fixtures.length).toBeGreaterThanOrEqual(3)
    for (const [name, s] of Object.entries(subs)) {
      expect(s.mirror.gaps, name).toEqual([])
      for (const id of fixtures) {
        const truth = await providerMarkets(up, id)
        // A fixture that has left the live feed has no in-play odds any more: its image keeps the settled ones.
        if (truth.length === 0) continue
        expect(s.mirror.images.get(id)?.markets, `${name}, fixture ${id}`).toEqual(truth)
      }
    }
  })

  it('conflation sends fewer odds frames for the same odds, and statuses all the same', () => {
    const count = (s: { mirror: OddsMirror }): number => s.mirror.frames.length
    expect(count(subs.fullConflated)).toBeLessThan(count(subs.full))
    expect(count(subs.deltaConflated)).toBeLessThan(count(subs.delta))
    const statuses = (s: { mirror: OddsMirror }): string[] => s.mirror.changesOf(match.id).flat()
      .filter((c) => c.kind === 'market_suspended' || c.kind === 'market_reopened' || c.kind === 'market_settled').map((c) => `${c.kind} ${refOf(c)}`)
    expect(statuses(subs.fullConflated)).toEqual(statuses(subs.full))
    expect(statuses(subs.deltaConflated)).toEqual(statuses(subs.full))
  })

  it('every frame received, odds frames in all four ways included, is as the AsyncAPI document says', () => {
    for (const [name, s] of Object.entries(subs)) {
      expect(s.ws.frames.length).toBeGreaterThan(40)
      const errors = s.ws.frames.flatMap((f) => serverFrameErrors(f).map((e) => `${name} ${String(f.type)}: ${e}`))
      expect(errors.slice(0, 5)).toEqual([])
    }
    expect(subs.deltaConflated.ws.frames.some((f) => f.type === 'odds' && typeof f.from_version === 'number')).toBe(true)
  })

  it('the odds poller spends only InplayOdd and the livescore poller never does', () => {
    expect(rig.buckets.odds.length).toBeGreaterThan(100)
    expect(new Set(rig.buckets.odds)).toEqual(new Set(['InplayOdd']))
    expect(rig.buckets.livescores.length).toBeGreaterThan(100)
    expect(rig.buckets.livescores).not.toContain('InplayOdd')
    expect(new Set(rig.buckets.livescores)).toEqual(new Set(['Fixture']))
  })
})
