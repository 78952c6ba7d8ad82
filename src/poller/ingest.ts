/**
 * Turns upstream fixtures into appended changes: normalize, keep what the upstream did not send as stored
 * (keepUnsent), diff against the stored fixture, apply with a version check. Two pollers cannot both append
 * the same change: on a version conflict the fixture is re-read and re-diffed once, which yields nothing when
 * the other writer already stored the same state.
 */
import { diffFixtures } from '../diff/diff.ts'
import { keepUnsent, normalizeFixture } from '../diff/normalize.ts'
import type { FixtureInput } from '../diff/input.ts'
import { LIVE_STATE_IDS } from '@touchline/upstream-contract/states'
import { AppError, ErrorCodes } from '../errors.ts'
import { isPredictedTick, settleClock } from '../protocol/clock.ts'
import type { Change, ChangeRecord, LiveFixture } from '../wire-model/model.ts'
import type { ApplyFence, LiveStore } from '../store/index.ts'

/**
 * The store refused a write because this instance no longer holds the poller lease (ApplyFence): nothing was
 * stored, and the write must not count as done (a fixture's final state is kept pending until it is).
 */
export class LeaseLostError extends AppError {
  override name = 'LeaseLostError'
  constructor () {
    super(ErrorCodes.LEASE_LOST, 'write refused: this instance does not hold the poller lease')
  }
}

export interface IngestResult {
  record: ChangeRecord
  json: string
}

/**
 * Where an ingested fixture goes: into the live index (`true`), out of it (`false`), or where it is: `'keep'`
 * (`fixtures/latest`, as fresh as a live poll) or `'outside'` (a read of its day, which may be older than the
 * live polls' last answer: a fixture in the live set is left to them). With `'keep'` and `'outside'` a fixture
 * in play joins the live set all the same: it is in the livescores feed, which the next reconcile confirms,
 * and its changes are news for everyone following its league or teams, not only for those following its day.
 */
export type Membership = boolean | 'keep' | 'outside'

export interface IngestOptions {
  /** See Membership. @default true */
  live?: Membership
  /** It left the live set for good: `fixture_removed` goes with its last changes. */
  removed?: boolean
  clockRate?: number
  everyTick?: boolean
  fence?: ApplyFence
}

/**
 * The changes of a fixture going from `prev` to `next`, with its membership of the live set: its first
 * sighting is `fixture_added` in the live set and `fixture_scheduled` outside it; entering the live set
 * while stored (a fixture of a day read before) adds `fixture_added`.
 */
function changesOf (prev: { fixture: LiveFixture, live: boolean } | undefined, next: LiveFixture, live: boolean): Change[] {
  if (prev === undefined) return [{ kind: live ? 'fixture_added' : 'fixture_scheduled' }]
  const changes = diffFixtures(prev.fixture, next)
  return live && !prev.live ? [{ kind: 'fixture_added' }, ...changes] : changes
}

/**
 * Applies one upstream fixture. A clock tick that the stored clock already shows is not stored (see
 * src/protocol/clock.ts): clients run the clock themselves, so it would be a frame telling them nothing.
 * `clockRate`: match seconds per real second of the upstream's clock (the simulator's speed);
 * `everyTick`: store predicted ticks too, as the gateway did before clients ran the clock (for clients that do not run it).
 */
export async function ingestFixture (store: LiveStore, upstream: FixtureInput, at: string, opts: IngestOptions = {}): Promise<IngestResult | undefined> {
  const normalized = normalizeFixture(upstream, { now: at, clockRate: opts.clockRate })
  const atMs = Date.parse(at)
  for (let attempt = 0; attempt < 2; attempt++) {
    const entry = await store.getEntry(normalized.id)
    if (opts.live === 'outside' && entry?.live === true) return undefined
    const inPlay = LIVE_STATE_IDS.has(normalized.state.id)
    // A read of the days older than the live polls: in play still, where the live set saw it end and let it go.
    if (opts.live === 'outside' && inPlay && entry?.fixture.state.phase === 'finished') return undefined
    const live = opts.live === 'keep' || opts.live === 'outside' ? entry?.live === true || inPlay : opts.live ?? true
    const prev = entry?.fixture
    const next = settleClock(prev, keepUnsent(prev, normalized, upstream), atMs)
    // A fixture leaving the live set for good was in it, as the poller knew it, even where the store did not
    // (it lost its data, or held it from a read of its day): those following the live set get it whole first.
    const changes = changesOf(entry, next, live || opts.removed === true)
    if (opts.removed === true) changes.push({ kind: 'fixture_removed' })
    if (changes.length === 0 || (opts.everyTick !== true && isPredictedTick(prev, next, changes, atMs))) return undefined
    const result = await store.apply({
      fixture: next,
      changes,
      expectedVersion: prev?.version ?? 0,
      live,
      at,
      ...(opts.fence !== undefined ? { fence: opts.fence } : {})
    })
    if (result.ok) return { record: result.record, json: result.json }
    // No longer the leader: its answer may be older than what its successor stored. Not to be retried here.
    if ('fenced' in result) throw new LeaseLostError()
  }
  return undefined
}

/**
 * Takes a fixture out of the live index with `fixture_removed`, its stored state unchanged: for a fixture
 * the upstream no longer returns at all. Nothing to do when the store does not hold it.
 */
export async function retireFixture (store: LiveStore, id: number, at: string, fence?: ApplyFence): Promise<IngestResult | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const prev = await store.getFixture(id)
    if (prev === undefined) return undefined
    const result = await store.apply({ fixture: prev, changes: [{ kind: 'fixture_removed' }], expectedVersion: prev.version, live: false, at, ...(fence !== undefined ? { fence } : {}) })
    if (result.ok) return { record: result.record, json: result.json }
    if ('fenced' in result) throw new LeaseLostError()
  }
  return undefined
}
