/**
 * The LiveStore contract, run against every engine (store.test.ts). Engine-specific behaviour (losing the
 * Redis keys) is gated on what the harness offers, never on the engine's name.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { changeRecords, fixtureIdOf, isStandingsRecord, type ApplyResult, type LiveStore, type LogRecord } from '../../../src/store/types.ts'
import { fixture } from './fixture.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { LeagueStandings, LiveFixture, StandingsChanged } from '../../../src/wire-model/model.ts'

export interface StoreHarness {
  store: LiveStore
  /** A second handle on the same data: another instance (another process) for Redis, the same store for memory. */
  peer: () => Promise<LiveStore>
  /** Loses all data as a Redis FLUSH would; absent for engines that cannot lose data while running. */
  wipe?: () => Promise<void>
  cleanup: () => Promise<void>
}

export type StoreFactory = (opts: { maxLength?: number, retainFinishedMs?: number }) => Promise<StoreHarness>

const AT = '2026-11-21T20:15:03.120Z'

/** Applies a fresh fixture (expectedVersion 0) and asserts it went through. */
async function add (store: LiveStore, id: number, leagueId: number, live = true): Promise<ApplyResult & { ok: true }> {
  const result = await store.apply({ fixture: fixture(id, leagueId), changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live, at: AT })
  if (!result.ok) throw new Error(`apply of ${id} rejected: ${JSON.stringify(result)}`)
  return result
}

const ids = (records: LogRecord[]) => records.map((r) => fixtureIdOf(r))

export function storeContract (name: string, factory: StoreFactory): void {
  const open = async (opts: { maxLength?: number, retainFinishedMs?: number } = {}): Promise<StoreHarness> => {
    const harness = await factory(opts)
    onTestFinished(harness.cleanup)
    return harness
  }

  describe(`${name} store contract`, () => {
    it('forgets fixtures that left the live index longer ago than the retention (their day past), and keeps live ones', async () => {
      const { store } = await open({ retainFinishedMs: 60_000 })
      const at = (ms: number): string => new Date(Date.parse(AT) + ms).toISOString()
      // Kicked off five days before: its day is past, so the retention after the live set alone decides.
      const old = fixture(1, 271, { starting_at: at(-5 * 86_400_000) })
      expect((await store.apply({ fixture: old, changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: true, at: AT })).ok).toBe(true)
      await add(store, 2, 271)
      // Fixture 1 finishes and leaves the live index at AT.
      const done = await store.apply({ fixture: old, changes: [{ kind: 'fixture_removed' }], expectedVersion: 1, live: false, at: AT })
      expect(done.ok).toBe(true)
      // Within the retention it is still readable by id.
      await store.apply({ fixture: fixture(2, 271), changes: [{ kind: 'clock', minute: 2, previous: 1 }], expectedVersion: 1, live: true, at: at(30_000) })
      expect(await store.getFixture(1)).toBeDefined()
      // Past it, the next apply forgets it; the live fixture stays.
      await store.apply({ fixture: fixture(2, 271), changes: [{ kind: 'clock', minute: 3, previous: 2 }], expectedVersion: 2, live: true, at: at(61_000) })
      expect(await store.getFixture(1)).toBeUndefined()
      expect(await store.trackedFixtureIds()).toEqual([2])
      expect((await store.liveFixtures()).map((f) => f.id)).toEqual([2])
      // Its changes stay in the log, and it starts afresh if it ever comes back.
      expect((await store.readSince(undefined, { fixtures: [1], limit: 10 })).records).toHaveLength(2)
      expect((await add(store, 1, 271)).record.fixture.version).toBe(1)
    })

    it('keeps a fixture of a day out of the live set until its day is past, then forgets it', async () => {
      const { store } = await open({ retainFinishedMs: 60_000 })
      const day = (n: number): number => Date.parse(AT) + n * 86_400_000
      const at = (ms: number): string => new Date(ms).toISOString()
      // A fixture of the day after tomorrow, held out of the live set, and a live one.
      const later = fixture(3, 271, { starting_at: at(day(2)) })
      const held = await store.apply({ fixture: later, changes: [{ kind: 'fixture_scheduled' }], expectedVersion: 0, live: false, at: AT })
      expect(held.ok && held.record.live).toBe(false)
      await add(store, 2, 271)
      expect(await store.getEntry(3)).toEqual({ fixture: { ...later, version: 1 }, live: false })
      expect((await store.getEntry(2))?.live).toBe(true)
      expect(await store.getEntry(99)).toBeUndefined()
      // Past the retention after leaving the live set (it never was in it), but its day is to come: kept.
      await store.apply({ fixture: fixture(2, 271), changes: [{ kind: 'clock', minute: 2, previous: 1 }], expectedVersion: 1, live: true, at: at(day(1)) })
      expect(await store.getFixture(3)).toBeDefined()
      // Its kick-off four days past: forgotten, from the days' index too.
      await store.apply({ fixture: fixture(2, 271), changes: [{ kind: 'clock', minute: 3, previous: 2 }], expectedVersion: 2, live: true, at: at(day(6) + 1000) })
      expect(await store.getFixture(3)).toBeUndefined()
      expect(await store.scheduled(day(2) - 1, day(2) + 1)).toEqual([])
    })

    it('lists the fixtures of a range of kick-offs, live or not, by kick-off then id, a moved kick-off where it went', async () => {
      const { store, peer } = await open()
      const kickoff = (h: number): string => new Date(Date.parse('2026-11-28T00:00:00Z') + h * 3_600_000).toISOString()
      const put = async (id: number, h: number | null, live: boolean): Promise<void> => {
        const r = await store.apply({ fixture: fixture(id, 271, { starting_at: h === null ? null : kickoff(h) }), changes: [{ kind: live ? 'fixture_added' : 'fixture_scheduled' }], expectedVersion: 0, live, at: AT })
        expect(r.ok).toBe(true)
      }
      await put(12, 20, false)
      await put(11, 15, true)
      await put(10, 15, false)
      await put(13, 25, false)
      await put(14, null, false)
      const day = [Date.parse('2026-11-28T00:00:00Z'), Date.parse('2026-11-29T00:00:00Z')] as const
      expect((await store.scheduled(...day)).map((f) => f.id)).toEqual([10, 11, 12])
      // The kick-off of 12 moves to the next day: it leaves this day's range.
      const moved = await store.apply({ fixture: fixture(12, 271, { starting_at: kickoff(26) }), changes: [], expectedVersion: 1, live: false, at: AT })
      expect(moved.ok).toBe(true)
      expect((await store.scheduled(...day)).map((f) => f.id)).toEqual([10, 11])
      expect((await (await peer()).scheduled(day[1], day[1] + 86_400_000)).map((f) => f.id)).toEqual([13, 12])
    })

    it('stores a new fixture at version 1 and appends one record carrying it', async () => {
      const { store } = await open()
      const epoch = await store.epoch()
      const result = await add(store, 1, 271)
      expect(result.record.cursor).toBe(`${epoch}:1`)
      expect(result.record.fixture.version).toBe(1)
      expect(JSON.parse(result.json)).toEqual(result.record)
      expect(await store.getFixture(1)).toEqual(result.record.fixture)
      expect(await store.head()).toBe(result.record.cursor)
      const read = await store.readSince(undefined, { limit: 10 })
      expect(read.records).toEqual([result.record])
    })

    it('rejects an apply whose expectedVersion is stale and writes nothing', async () => {
      const { store } = await open()
      await add(store, 1, 271)
      const head = await store.head()
      const changed = fixture(1, 271, { minute: 11 })
      expect(await store.apply({ fixture: changed, changes: [], expectedVersion: 0, live: true, at: AT })).toEqual({ ok: false, currentVersion: 1 })
      expect(await store.apply({ fixture: changed, changes: [], expectedVersion: 2, live: true, at: AT })).toEqual({ ok: false, currentVersion: 1 })
      expect(await store.head()).toBe(head)
      expect((await store.getFixture(1))?.minute).toBe(10)
      const next = await store.apply({ fixture: changed, changes: [{ kind: 'clock', minute: 11, previous: 10 }], expectedVersion: 1, live: true, at: AT })
      expect(next.ok && next.record.fixture.version).toBe(2)
    })

    it('lets exactly one of two concurrent applies with the same expectedVersion win, and log agrees with state', async () => {
      const { store, peer } = await open()
      const other = await peer()
      const race = Array.from({ length: 20 }, (_, i) => i + 1).map(async (id) => {
        const [a, b] = await Promise.all([
          store.apply({ fixture: fixture(id, 271, { minute: 1 }), changes: [], expectedVersion: 0, live: true, at: AT }),
          other.apply({ fixture: fixture(id, 271, { minute: 2 }), changes: [], expectedVersion: 0, live: true, at: AT })
        ])
        expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1)
        return a.ok ? a.record : (b as ApplyResult & { ok: true }).record
      })
      const winners = await Promise.all(race)
      const log = await store.readSince(undefined, { limit: 100 })
      expect(log.records).toHaveLength(20)
      for (const record of changeRecords(log.records)) {
        expect(await store.getFixture(record.fixture_id)).toEqual(record.fixture)
        expect(winners).toContainEqual(record)
      }
    })

    it('keeps the live index by league and drops fixtures applied with live false', async () => {
      const { store } = await open()
      await add(store, 1, 271)
      await add(store, 2, 501)
      await add(store, 3, 271, false)
      const live = async (filter?: { leagues?: number[], fixtures?: number[] }) => (await store.liveFixtures(filter)).map((f) => f.id)
      expect(await live()).toEqual([1, 2])
      expect(await live({ leagues: [271] })).toEqual([1])
      expect(await live({ fixtures: [2, 3] })).toEqual([2])
      expect(await live({ leagues: [501], fixtures: [1] })).toEqual([1, 2])
      expect(await live({ leagues: [], fixtures: [] })).toEqual([])
      expect(await store.trackedFixtureIds()).toEqual([1, 2, 3])
      // The count of the live index, without the fixtures: what /v1/status shows on every instance.
      expect(await store.liveCount()).toBe(2)

      await store.apply({ fixture: fixture(1, 271, { state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' } }), changes: [], expectedVersion: 1, live: false, at: AT })
      expect(await live({ leagues: [271] })).toEqual([])
      expect(await live()).toEqual([2])
      expect(await store.liveCount()).toBe(1)
      // A league correction moves the fixture between league sets.
      await store.apply({ fixture: fixture(2, 271), changes: [], expectedVersion: 1, live: true, at: AT })
      expect(await live({ leagues: [501] })).toEqual([])
      expect(await live({ leagues: [271] })).toEqual([2])
      expect((await store.liveFixtures())[0]?.version).toBe(2)
    })

    it('summarises the live index by phase and the log\'s length, counting fixtures it does not return', async () => {
      const { store } = await open({ maxLength: 5 })
      expect(await store.summary()).toEqual({ liveByPhase: {}, logLength: 0, maxLength: 5 })
      const state = (id: number, code: string, name: string, phase: LiveFixture['state']['phase']): LiveFixture['state'] => ({ id, code, name, phase })
      await add(store, 1, 271)
      await add(store, 2, 271)
      // A name holding the words the summary looks for, quotes and braces included, does not mislead it.
      const tricky = fixture(3, 501, { name: 'The "state":{"phase":"live"} derby', state: state(3, 'HT', 'Half Time', 'break') })
      expect((await store.apply({ fixture: tricky, changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: true, at: AT })).ok).toBe(true)
      await store.apply({ fixture: fixture(4, 501, { state: state(1, 'NS', 'Not Started', 'scheduled') }), changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: true, at: AT })
      await store.apply({ fixture: fixture(5, 501, { state: state(11, 'SUSPENDED', 'Suspended', 'suspended') }), changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: true, at: AT })
      // Out of the live index: not counted.
      await store.apply({ fixture: fixture(6, 501, { state: state(5, 'FT', 'Full Time', 'finished') }), changes: [{ kind: 'fixture_added' }], expectedVersion: 0, live: false, at: AT })
      expect(await store.summary()).toEqual({ liveByPhase: { live: 2, break: 1, scheduled: 1, suspended: 1 }, logLength: 5, maxLength: 5 })
      // Fixture 2 ends and leaves; the log keeps its last 5 records.
      await store.apply({ fixture: fixture(2, 271, { state: state(5, 'FT', 'Full Time', 'finished') }), changes: [{ kind: 'fixture_removed' }], expectedVersion: 1, live: false, at: AT })
      expect(await store.summary()).toEqual({ liveByPhase: { live: 1, break: 1, scheduled: 1, suspended: 1 }, logLength: 5, maxLength: 5 })
      expect(await store.liveCount()).toBe(4)
    })

    it('returns stored fixtures in the order asked and skips unknown ids', async () => {
      const { store } = await open()
      await add(store, 1, 271)
      await add(store, 2, 271)
      expect((await store.getFixtures([2, 99, 1])).map((f) => f.id)).toEqual([2, 1])
      expect(await store.getFixtures([])).toEqual([])
      expect(await store.getFixture(99)).toBeUndefined()
    })

    it('keeps a league\'s table with its own version, appended to the one log and read by league, never by fixture', async () => {
      const { store, peer } = await open()
      const start = await store.head()
      await add(store, 1, 271)
      const table = (points: number): LeagueStandings => ({
        league_id: 271,
        season_id: 20003,
        tables: [{ stage_id: 7, group_id: null, rows: [{ team: { id: 1, name: 'One', short_code: null, image_path: null }, position: 1, points, played: 1, won: 1, drawn: 0, lost: 0, goals_for: 1, goals_against: 0, goal_difference: 1, result: 'equal' }] }],
        updated_at: AT,
        version: 0
      })
      const changes: StandingsChanged[] = [{ kind: 'standings_changed', rows: [{ stage_id: 7, group_id: null, team_id: 1, position: 1, points: 3, previous: null }] }]
      const first = await store.applyStandings({ standings: table(3), changes, expectedVersion: 0, at: AT })
      if (!first.ok) throw new Error('not applied')
      expect(first.record).toEqual({ cursor: `${await store.epoch()}:2`, league_id: 271, at: AT, changes, standings: { ...table(3), version: 1 } })
      expect(JSON.parse(first.json)).toEqual(first.record)
      expect(await store.applyStandings({ standings: table(4), changes, expectedVersion: 0, at: AT })).toEqual({ ok: false, currentVersion: 1 })
      expect((await store.applyStandings({ standings: table(4), changes, expectedVersion: 1, at: AT })).ok).toBe(true)
      const other = await peer()
      expect(await other.getStandings([271, 501])).toEqual([{ ...table(4), version: 2 }])
      expect((await other.getStandings()).map((t) => t.league_id)).toEqual([271])
      expect(await other.getStandings([])).toEqual([])
      // The fixture's version is its own: the table did not move it.
      expect((await store.getFixture(1))?.version).toBe(1)
      const byLeague = await other.readSince(start, { leagues: [271], limit: 10 })
      expect(byLeague.records.map((r) => isStandingsRecord(r) ? `table v${r.standings.version}` : `fixture ${fixtureIdOf(r)}`)).toEqual(['fixture 1', 'table v1', 'table v2'])
      expect(byLeague.json?.[1]).toBe(first.json)
      expect((await other.readSince(start, { fixtures: [1], limit: 10 })).records.map((r) => fixtureIdOf(r))).toEqual([1])
    })

    it('reads changes after a cursor matching league OR fixture, paging with limit and more', async () => {
      const { store } = await open()
      const start = await store.head()
      // Fixtures 1..9: leagues alternate 271, 501, 8.
      for (let id = 1; id <= 9; id++) await add(store, id, [271, 501, 8][id % 3] as number)
      const filter = { leagues: [501], fixtures: [3] } // league 501 holds 1, 4, 7; fixture 3 is in league 271
      const seen: number[] = []
      let cursor = start
      for (let page = 0; page < 10; page++) {
        const read = await store.readSince(cursor, { ...filter, limit: 2 })
        expect(read.recovered).toBe(true)
        seen.push(...ids(read.records))
        cursor = read.cursor
        if (!read.more) break
      }
      expect(seen).toEqual([1, 3, 4, 7])
      expect(cursor).toBe(await store.head())

      const first = await store.readSince(start, { limit: 3 })
      expect(ids(first.records)).toEqual([1, 2, 3])
      expect(first.more).toBe(true)
      expect(first.cursor).toBe(first.records[2]?.cursor)
      const rest = await store.readSince(first.cursor, { limit: 100 })
      expect(ids(rest.records)).toEqual([4, 5, 6, 7, 8, 9])
      expect(rest.more).toBe(false)
      expect(await store.readSince(start, { leagues: [], fixtures: [], limit: 10 })).toMatchObject({ records: [], more: false })
      expect(await store.readSince(await store.head(), { limit: 10 })).toMatchObject({ records: [], recovered: true, more: false })
    })

    it('returns the JSON each read record was appended with, so readers need not serialize it again', async () => {
      const { store, peer } = await open()
      const start = await store.head()
      const applied = [await add(store, 1, 271), await add(store, 2, 501), await add(store, 3, 271)]
      const read = await (await peer()).readSince(start, { leagues: [271], limit: 10 })
      expect(read.json).toEqual([applied[0]?.json, applied[2]?.json])
      expect(read.json?.map((json) => JSON.parse(json) as unknown)).toEqual(read.records)
      const page = await store.readSince(start, { limit: 2 })
      expect(page.json).toEqual([applied[0]?.json, applied[1]?.json])
      expect((await store.readSince('garbage', { limit: 10 })).json).toEqual([])
    })

    it('answers recovered:false with the head for malformed cursors', async () => {
      const { store } = await open()
      await add(store, 1, 271)
      const epoch = await store.epoch()
      const head = await store.head()
      for (const bad of ['', 'garbage', `${epoch}:`, `${epoch}:x`, `${epoch}:-1`, `${epoch}:01`, `${epoch}:99`, ':1', `${epoch}:1:1`]) {
        expect(await store.readSince(bad, { limit: 10 }), bad).toEqual({ records: [], json: [], cursor: head, recovered: false, more: false })
      }
    })

    it('rejects a read limit that is not a non-negative integer', async () => {
      const { store } = await open()
      await expect(store.readSince(undefined, { limit: -1 })).rejects.toThrow(RangeError)
      await expect(store.readSince(undefined, { limit: Number.NaN })).rejects.toThrow(RangeError)
    })

    it('answers recovered:false for a cursor from another epoch', async () => {
      const { store } = await open()
      const other = await open()
      await add(store, 1, 271)
      await add(other.store, 1, 271)
      expect(await store.epoch()).not.toBe(await other.store.epoch())
      const read = await other.store.readSince(await store.head(), { limit: 10 })
      expect(read).toEqual({ records: [], json: [], cursor: await other.store.head(), recovered: false, more: false })
    })

    it('answers recovered:false for a cursor older than the capped log', async () => {
      const { store } = await open({ maxLength: 3 })
      const epoch = await store.epoch()
      for (let id = 1; id <= 5; id++) await add(store, id, 271)
      expect((await store.readSince(`${epoch}:0`, { limit: 10 })).recovered).toBe(false)
      expect((await store.readSince(`${epoch}:1`, { limit: 10 })).recovered).toBe(false)
      expect(ids((await store.readSince(`${epoch}:2`, { limit: 10 })).records)).toEqual([3, 4, 5])
      expect(ids((await store.readSince(undefined, { limit: 10 })).records)).toEqual([3, 4, 5])
    })

    it('reports a stable epoch and a head of <epoch>:0 before any write', async () => {
      const { store, peer } = await open()
      expect(await store.readSince(undefined, { limit: 10 })).toEqual({ records: [], json: [], cursor: await store.head(), recovered: true, more: false })
      const epoch = await store.epoch()
      expect(epoch).toMatch(/^[0-9a-f]+$/)
      expect(await store.head()).toBe(`${epoch}:0`)
      expect(await (await peer()).epoch()).toBe(epoch)
      const { record } = await add(store, 1, 271)
      expect(await store.epoch()).toBe(epoch)
      expect(record.cursor).toBe(`${epoch}:1`)
    })

    it('delivers every appended record to subscribers in order, with its JSON', async () => {
      const { store, peer } = await open()
      const received: Array<{ record: LogRecord, json: string }> = []
      const errors: unknown[] = []
      const unsubscribe = await (await peer()).subscribe((record, json) => received.push({ record, json }), (err) => errors.push(err))
      const applied = []
      for (let id = 1; id <= 25; id++) applied.push(await add(store, id, 271))
      await waitFor('received.length >= 25', () => received.length >= 25)
      expect(received.map((r) => r.record)).toEqual(applied.map((a) => a.record))
      expect(received.map((r) => r.json)).toEqual(applied.map((a) => a.json))
      await unsubscribe()
      await add(store, 26, 271)
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(received).toHaveLength(25)
      expect(errors).toEqual([])
    })

    it('keeps log order for every subscriber when a listener applies from inside its callback', async () => {
      const { store, peer } = await open()
      const first: string[] = []
      const second: string[] = []
      const errors: unknown[] = []
      await (await peer()).subscribe((r) => {
        first.push(r.cursor)
        if (fixtureIdOf(r) === 1) add(store, 2, 271).catch((err: unknown) => errors.push(err))
      })
      await (await peer()).subscribe((r) => second.push(r.cursor))
      await add(store, 1, 271)
      await waitFor('first.length === 2 && second.length === 2', () => first.length === 2 && second.length === 2)
      expect(second).toEqual(first)
      expect(first).toEqual([...first].sort())
      expect(errors).toEqual([])
    })

    it('keeps delivering to other subscribers when one listener throws', async () => {
      const { store, peer } = await open()
      const errors: unknown[] = []
      const got: string[] = []
      await (await peer()).subscribe(() => { throw new Error('listener bug') }, (err) => errors.push(err))
      await (await peer()).subscribe((r) => got.push(r.cursor))
      await add(store, 1, 271)
      await add(store, 2, 271)
      await waitFor('got.length === 2 && errors.length === 2', () => got.length === 2 && errors.length === 2)
    })

    it('starts a new epoch when the data is lost, so old cursors cannot be trusted', async (ctx) => {
      const { store, wipe } = await open()
      if (wipe === undefined) return ctx.skip()
      const received: LogRecord[] = []
      await store.subscribe((r) => received.push(r))
      const before = await add(store, 1, 271)
      await waitFor('received.length === 1', () => received.length === 1)
      await wipe()
      // The fixture is gone too, so the poller re-applies it from version 0.
      expect(await store.getFixture(1)).toBeUndefined()
      const after = await add(store, 1, 271)
      // The tail notices a lost log even when nothing newer arrives (its offsets restarted below its position).
      await waitFor('received.length === 2', () => received.length === 2)
      const epoch = await store.epoch()
      expect(epoch).not.toBe(before.record.cursor.split(':')[0])
      expect(after.record.cursor).toBe(`${epoch}:1`)
      expect(await store.readSince(before.record.cursor, { limit: 10 })).toMatchObject({ recovered: false, cursor: after.record.cursor })
      await add(store, 2, 271)
      await waitFor('received.length === 3', () => received.length === 3)
      expect(received.map((r) => r.cursor)).toEqual([before.record.cursor, after.record.cursor, `${epoch}:2`])
    })
  })
}
