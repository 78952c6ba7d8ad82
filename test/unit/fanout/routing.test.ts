import { describe, expect, it } from 'vitest'
import { Connection } from '../../../src/fanout/connection.ts'
import { Outgoing } from '../../../src/fanout/outgoing.ts'
import { RoutingIndex } from '../../../src/fanout/routing.ts'
import type { ClientKey } from '../../../src/client-keys.ts'
import type { ChangeRecord } from '../../../src/wire-model/model.ts'
import { fixture } from '../../integration/store/fixture.ts'

const key = (leagues: ClientKey['leagues'] = '*'): ClientKey =>
  ({ key: 'k', name: 'k', leagues, hourly_quota: 1, max_connections: 1, allowed_origins: '*', features: [] })

class FakeConnection extends Connection {
  readonly transport = 'ws' as const
  readonly got: string[] = []
  sendControl (): number { return 0 }
  sendChange (out: Outgoing): number { this.got.push(out.record.cursor); return 1 }
  sendSnapshot (): number { return 0 }
  bufferedAmount (): number { return 0 }
  close (): void {}
  terminate (): void {}
  dropSlow (): void {}
}

function change (offset: number, fixtureId: number, leagueId: number): Outgoing & { record: ChangeRecord } {
  const record: ChangeRecord = { cursor: `e:${offset}`, fixture_id: fixtureId, league_id: leagueId, at: 'now', live: true, changes: [], fixture: fixture(fixtureId, leagueId) }
  return Outgoing.of(record, JSON.stringify(record)) as Outgoing & { record: ChangeRecord }
}

const ids = (leagues: number[], fixtures: number[], teams: number[] = []) => ({ leagues, fixtures, teams })

function matches (index: RoutingIndex, out: Outgoing): number[] {
  const ids: number[] = []
  index.forEachMatch(out, (c) => ids.push(c.id))
  return ids.sort()
}

describe('RoutingIndex', () => {
  it('matches by league or fixture, once per connection', () => {
    const index = new RoutingIndex()
    const both = new FakeConnection(1, key())
    const fixtureOnly = new FakeConnection(2, key())
    const none = new FakeConnection(3, key())
    index.add(both, ids([271], [7]))
    index.add(fixtureOnly, ids([], [7]))
    index.add(none, ids([], []))
    expect(matches(index, change(1, 7, 271))).toEqual([1, 2])
    expect(matches(index, change(2, 8, 271))).toEqual([1])
    expect(matches(index, change(3, 9, 501))).toEqual([])
    expect(index.total).toBe(3)
  })

  it('keeps fixtures of leagues outside a scoped key away', () => {
    const index = new RoutingIndex()
    const scoped = new FakeConnection(1, key([271]))
    index.add(scoped, ids([], [7]))
    expect(matches(index, change(1, 7, 501))).toEqual([])
    expect(matches(index, change(2, 7, 271))).toEqual([1])
  })

  it('routes everything in scope to an all-leagues connection, and forgets a dropped one', () => {
    const index = new RoutingIndex()
    const all = new FakeConnection(1, key())
    const scopedAll = new FakeConnection(2, key([271]))
    index.add(all, { all: true, ...ids([], []) })
    index.add(scopedAll, { all: true, ...ids([], []) })
    expect(matches(index, change(1, 7, 501))).toEqual([1])
    const c = new FakeConnection(3, key())
    index.add(c, ids([501], [1, 2]))
    expect(index.drop(c)).toBe(3)
    expect(index.total).toBe(0)
    expect(matches(index, change(2, 1, 501))).toEqual([1])
  })

  it('matches by either team, once per connection, and never outside a scoped key\'s leagues', () => {
    const index = new RoutingIndex()
    // fixture(7, ...) is team 70 at home against team 71.
    const home = new FakeConnection(1, key())
    const away = new FakeConnection(2, key())
    const bothTeams = new FakeConnection(3, key())
    const teamAndLeague = new FakeConnection(4, key())
    const scoped = new FakeConnection(5, key([271]))
    index.add(home, ids([], [], [70]))
    index.add(away, ids([], [], [71]))
    index.add(bothTeams, ids([], [], [70, 71]))
    index.add(teamAndLeague, ids([271], [7], [70]))
    index.add(scoped, ids([], [], [70, 71]))
    const seen: number[] = []
    index.forEachMatch(change(1, 7, 271), (c) => seen.push(c.id))
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5])
    expect(matches(index, change(2, 7, 501))).toEqual([1, 2, 3, 4])
    expect(matches(index, change(3, 8, 501))).toEqual([])
    expect(index.total).toBe(9)
  })

  it('gives a kinds-filtered connection only its kinds, one shared view per kinds set, nothing when none is left', () => {
    const index = new RoutingIndex()
    const every = new FakeConnection(1, key())
    const goals = new FakeConnection(2, key())
    const goalsToo = new FakeConnection(3, key())
    for (const c of [every, goals, goalsToo]) index.add(c, ids([271], []))
    for (const c of [goals, goalsToo]) { c.kinds = new Set(['score_changed']); c.takeKey = 'score_changed' }
    const record: ChangeRecord = {
      ...change(1, 7, 271).record,
      changes: [{ kind: 'clock', minute: 2, previous: 1 }, { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 } }]
    }
    const out = Outgoing.of(record, JSON.stringify(record))
    const views = new Map<number, Outgoing>()
    index.forEachMatch(out, (c, view) => views.set(c.id, view))
    expect(views.get(1)).toBe(out)
    expect(views.get(2)?.record.changes.map((c) => c.kind)).toEqual(['score_changed'])
    expect(JSON.parse(views.get(2)?.ws.toString() ?? '').changes).toHaveLength(1)
    expect(views.get(3)).toBe(views.get(2))
    const tick = change(2, 7, 271)
    const clockOnly: ChangeRecord = { ...tick.record, changes: [{ kind: 'clock', minute: 3, previous: 2 }] }
    expect(matches(index, Outgoing.of(clockOnly, JSON.stringify(clockOnly)))).toEqual([1])
  })

  it('counts only ids that were actually added or removed', () => {
    const index = new RoutingIndex()
    const c = new FakeConnection(1, key())
    expect(index.add(c, ids([1, 1, 2], []))).toBe(2)
    expect(index.add(c, ids([2, 3], []))).toBe(1)
    expect(index.remove(c, ids([3, 4], [9]))).toBe(1)
    expect(c.subscriptionCount).toBe(2)
  })
})

describe('Connection', () => {
  it('holds live changes while pending and sends them in order on flush', () => {
    const c = new FakeConnection(1, key())
    c.pending = []
    c.push(change(1, 7, 271))
    c.push(change(2, 7, 271))
    expect(c.got).toEqual([])
    expect(c.flushPending()).toBe(2)
    expect(c.got).toEqual(['e:1', 'e:2'])
    expect(c.pending).toBeUndefined()
  })

  it('skips changes the replay already sent and lifts the floor once past it', () => {
    const c = new FakeConnection(1, key())
    c.addFloor({ epoch: 'e', offset: 5, all: false, leagues: new Set([271]), fixtures: new Set() })
    c.push(change(4, 7, 271)) // replayed
    c.push(change(5, 8, 501)) // not in the replayed filter: another subscription's change
    c.push(change(6, 7, 271))
    expect(c.got).toEqual(['e:5', 'e:6'])
    expect(c.floors).toBeUndefined()
  })

  it('applies several floors, each until the log passes it', () => {
    const c = new FakeConnection(1, key())
    c.addFloor({ epoch: 'e', offset: 3, all: false, leagues: new Set(), fixtures: new Set([7]) })
    c.addFloor({ epoch: 'e', offset: 5, all: false, leagues: new Set([501]), fixtures: new Set() })
    c.push(change(2, 7, 271)) // under the first
    c.push(change(4, 7, 271)) // past the first, not in the second's filter
    c.push(change(5, 8, 501)) // under the second
    c.push(change(6, 8, 501))
    expect(c.got).toEqual(['e:4', 'e:6'])
    expect(c.floors).toBeUndefined()
  })

  it('ignores a floor of another epoch', () => {
    const c = new FakeConnection(1, key())
    c.addFloor({ epoch: 'old', offset: 9, all: true, leagues: new Set(), fixtures: new Set() })
    c.push(change(1, 7, 271))
    expect(c.got).toEqual(['e:1'])
  })

  it('keeps a single floor however often the same subscribe repeats', () => {
    const c = new FakeConnection(1, key())
    for (let offset = 1; offset <= 100; offset++) c.addFloor({ epoch: 'e', offset, all: false, leagues: new Set([271]), fixtures: new Set([7]) })
    expect(c.floors).toHaveLength(1)
    expect(c.floors?.[0]?.offset).toBe(100)
    // An older, narrower floor adds nothing either.
    c.addFloor({ epoch: 'e', offset: 50, all: false, leagues: new Set([271]), fixtures: new Set() })
    expect(c.floors).toHaveLength(1)
    c.push(change(100, 8, 271))
    c.push(change(101, 7, 271))
    expect(c.got).toEqual(['e:101'])
  })

  it('keeps floors that cover different records, and lets a wider later one replace them', () => {
    const c = new FakeConnection(1, key())
    c.addFloor({ epoch: 'e', offset: 5, all: false, leagues: new Set([271]), fixtures: new Set() })
    c.addFloor({ epoch: 'e', offset: 6, all: false, leagues: new Set([501]), fixtures: new Set() })
    // A later floor of a narrower filter must not extend the first one to offset 6 for league 271.
    expect(c.floors).toHaveLength(2)
    c.addFloor({ epoch: 'e', offset: 7, all: true, leagues: new Set(), fixtures: new Set() })
    expect(c.floors).toHaveLength(1)
    c.addFloor({ epoch: 'other', offset: 1, all: true, leagues: new Set(), fixtures: new Set() })
    expect(c.floors).toHaveLength(2)
  })

  it('forgets the floors the hub has routed past once nothing is held', () => {
    const c = new FakeConnection(1, key())
    c.pending = []
    c.addFloor({ epoch: 'e', offset: 5, all: false, leagues: new Set([271]), fixtures: new Set() })
    c.addFloor({ epoch: 'e', offset: 9, all: false, leagues: new Set([501]), fixtures: new Set() })
    c.push(change(4, 7, 271))
    // While changes are held, the floors still have work to do on them.
    c.dropFloorsThrough({ epoch: 'e', offset: 6 })
    expect(c.floors).toHaveLength(2)
    c.flushPending()
    expect(c.got).toEqual([])
    c.dropFloorsThrough({ epoch: 'e', offset: 6 })
    expect(c.floors).toEqual([expect.objectContaining({ offset: 9 })])
    c.dropFloorsThrough({ epoch: 'e', offset: 9 })
    expect(c.floors).toBeUndefined()
  })

  it('sends nothing once closed', () => {
    const c = new FakeConnection(1, key())
    c.closed = true
    expect(c.push(change(1, 7, 271))).toBe(0)
    expect(c.got).toEqual([])
  })
})
