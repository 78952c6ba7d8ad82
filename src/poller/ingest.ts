/**
 * Turns upstream fixtures into appended changes: normalize, keep what the upstream did not send as stored
 * (keepUnsent), diff against the stored fixture, apply with a version check. Two pollers cannot both append
 * the same change: on a version conflict the fixture is re-read and re-diffed once, which yields nothing when
 * the other writer already stored the same state.
 */
import { diffFixtures } from '../diff/diff.ts'
import { keepUnsent, normalizeFixture } from '../diff/normalize.ts'
import type { FixtureInput } from '../diff/input.ts'
import { AppError, ErrorCodes } from '../errors.ts'
import { isPredictedTick, settleClock } from '../live/clock.ts'
import type { Change, ChangeRecord } from '../wire/model.ts'
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
 * Applies one upstream fixture. A clock tick that the stored clock already shows is not stored (see
 * src/live/clock.ts): clients run the clock themselves, so it would be a frame telling them nothing.
 * `clockRate`: match seconds per real second of the upstream's clock (the simulator's speed);
 * `everyTick`: store predicted ticks too, as the gateway did before clients ran the clock (for clients that do not run it).
 */
export async function ingestFixture (store: LiveStore, upstream: FixtureInput, at: string, opts: { live?: boolean, removed?: boolean, clockRate?: number, everyTick?: boolean, fence?: ApplyFence } = {}): Promise<IngestResult | undefined> {
  const normalized = normalizeFixture(upstream, { now: at, clockRate: opts.clockRate })
  const atMs = Date.parse(at)
  for (let attempt = 0; attempt < 2; attempt++) {
    const prev = await store.getFixture(normalized.id)
    const next = settleClock(prev, keepUnsent(prev, normalized, upstream), atMs)
    const changes: Change[] = diffFixtures(prev, next)
    if (opts.removed === true && prev !== undefined) changes.push({ kind: 'fixture_removed' })
    if (changes.length === 0 || (opts.everyTick !== true && isPredictedTick(prev, next, changes, atMs))) return undefined
    const result = await store.apply({
      fixture: next,
      changes,
      expectedVersion: prev?.version ?? 0,
      live: opts.live ?? true,
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
