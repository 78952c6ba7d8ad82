/**
 * The fixtures the poller follows: applying what the upstream returned to the store, and the reconcile that
 * makes sure a fixture's final state is never missed. Fixtures that left the feed while live in the store,
 * or while in the feed at the previous reconcile (the poller's own memory, which outlives a store that lost
 * its data or cannot be read), are fetched by id (`fixtures/multi`) at each reconcile until they are final.
 * One the upstream no longer returns by id (a 404, or a 200 "No result(s)") at RETIRE_AFTER_MISSES
 * reconciles in a row is retired with `fixture_removed`.
 */
import { LIVE_STATE_IDS } from '@touchline/upstream-contract/states'
import type { Change } from '../wire-model/model.ts'
import { isStoreUnavailable } from '../store/unavailable.ts'
import type { UpstreamFixture } from '../upstream/schemas.ts'
import { fixturesByIds, MULTI_MAX, pollCall } from './calls.ts'
import type { PollerContext } from './context.ts'
import { ingestFixture, LeaseLostError, retireFixture, type IngestResult, type Membership } from './ingest.ts'

/**
 * Reconciles in a row at which the upstream must fail to return a fixture by id before it is retired: a
 * single empty answer may be a glitch, three (about 90 s at the default reconcile interval) are not.
 */
export const RETIRE_AFTER_MISSES = 3

/**
 * Whether a change set has a moment at the provider to measure detection latency against: a clock tick
 * alone does not (it ticks every match second), nor do the first sighting of a fixture (in the live set or
 * on a read of its day: a match of three days ago last changed then) and its removal from the live set
 * (touchline's own bookkeeping).
 */
export function isTimedChange (changes: readonly Change[]): boolean {
  return changes.some((c) => c.kind !== 'clock' && c.kind !== 'fixture_added' && c.kind !== 'fixture_scheduled' && c.kind !== 'fixture_removed')
}

/**
 * Applies fixtures to the store. `leftFeed`: they were fetched by id after leaving the livescores feed. The
 * upstream drops a fixture from the feed 15 minutes after its end, so one no longer in play is final then,
 * FT included (a cup tie bound for extra time stays in the feed), and leaves the live index. `live`: where
 * the others go (ingest.ts Membership): the live set by default, or where they are (a read of their day).
 * @throws after trying every fixture, when any could not be stored: the step then counts as failed and
 *   the next one reconciles, so the changes are picked up again. At once when the store cannot be reached
 *   (each further write would only wait out the same command timeout: a step of ten fixtures would hold
 *   the loop, and a deposed leader's stop, for twenty seconds), when the poller lease is not held
 *   (LeaseLostError), or when the poller is stopping.
 */
export async function ingest (p: PollerContext, fixtures: readonly UpstreamFixture[], how: { leftFeed?: boolean, live?: Membership } = {}): Promise<void> {
  const leftFeed = how.leftFeed === true
  const at = new Date(p.now()).toISOString()
  let failed = 0
  for (const fixture of fixtures) {
    if (p.abort.signal.aborted) throw new Error('the poller stopped before every fixture was stored')
    const final = leftFeed && !LIVE_STATE_IDS.has(fixture.state_id)
    try {
      const result = await ingestFixture(p.deps.store, fixture, at, final ? { live: false, removed: true, ...p.ingestOpts } : { live: how.live ?? true, ...p.ingestOpts })
      if (final) p.pendingFinal.delete(fixture.id)
      if (result !== undefined) observe(p, result)
    } catch (err) {
      // Every further write would fail the same way; the fixture stays pending (its final state included).
      if (isStoreUnavailable(err) || err instanceof LeaseLostError) throw err
      failed++
      p.log.error({ err, fixtureId: fixture.id }, 'fixture could not be applied')
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${fixtures.length} fixtures could not be stored`)
}

/** Counts a stored record's changes and its detection latency, and hands it on. */
function observe (p: PollerContext, result: IngestResult): void {
  const detectedAt = p.now()
  for (const change of result.record.changes) p.deps.metrics?.changes.inc({ kind: change.kind })
  const madeAt = isTimedChange(result.record.changes) ? p.deps.changedAt?.(result.record.fixture_id, detectedAt) : undefined
  if (madeAt !== undefined && madeAt > 0 && madeAt <= detectedAt) p.deps.metrics?.detectionLatency.observe((detectedAt - madeAt) / 1000)
  p.deps.onRecord?.(result)
}

/** The store's live set; when it cannot be read, the poller's own memory stands in for it. */
async function storedLive (p: PollerContext): Promise<number[] | undefined> {
  try {
    return (await p.deps.store.liveFixtures()).map((f) => f.id)
  } catch (err) {
    p.log.warn({ err }, 'live set could not be read; fetching the fixtures last seen live by id')
    return undefined
  }
}

/** Counts a miss for each id; those missed RETIRE_AFTER_MISSES times are retired and no longer asked for. */
async function missed (p: PollerContext, ids: readonly number[]): Promise<void> {
  const at = new Date(p.now()).toISOString()
  for (const id of ids) {
    const count = (p.misses.get(id) ?? 0) + 1
    p.misses.set(id, count)
    if (count < RETIRE_AFTER_MISSES) continue
    const result = await retireFixture(p.deps.store, id, at, p.deps.fence)
    p.log.warn({ fixtureId: id, reconciles: count }, 'upstream no longer returns this fixture; retired')
    p.pendingFinal.delete(id)
    p.misses.delete(id)
    if (result !== undefined) observe(p, result)
  }
}

/**
 * The full feed, then every fixture still live in the store or the last feed that is no longer in it,
 * by id (50 per call): such a fixture may have changed after our last look, and its final state must not
 * be missed. These extra calls come once per reconcile, so they never push two `latest` polls more than
 * the window apart.
 */
export async function reconcile (p: PollerContext, startedAt: number): Promise<void> {
  const fixtures = await pollCall(p, '/football/livescores')
  const inFeed = new Set(fixtures.map((f) => f.id))
  p.kickoffs.reconciled(startedAt, inFeed)
  // Before anything is stored: what was in the feed last time and left it is pending even if the store
  // lost it (flushed, restarted empty) or the apply below fails.
  for (const id of p.lastFeed) if (!inFeed.has(id)) p.pendingFinal.add(id)
  p.lastFeed = inFeed
  await ingest(p, fixtures)
  const live = await storedLive(p)
  for (const id of live ?? []) if (!inFeed.has(id)) p.pendingFinal.add(id)
  for (const id of p.pendingFinal) {
    if (inFeed.has(id)) { p.pendingFinal.delete(id); p.misses.delete(id) }
  }
  await fetchPending(p)
  p.tracked = live?.length ?? inFeed.size + p.pendingFinal.size
  p.lastReconcileAt = p.now()
  p.lastReconcileTick = p.ticks()
  p.needReconcile = false
  p.deps.metrics?.liveFixtures.set(p.tracked)
}

/** The pending fixtures by id, MULTI_MAX per call: the final ones are stored and leave the live index. */
async function fetchPending (p: PollerContext): Promise<void> {
  const ids = [...p.pendingFinal]
  p.reconcileCalls = 1 + Math.ceil(ids.length / MULTI_MAX)
  for (let i = 0; i < ids.length; i += MULTI_MAX) {
    const batch = ids.slice(i, i + MULTI_MAX)
    const found = await fixturesByIds(p, batch)
    await ingest(p, found, { leftFeed: true })
    const returned = new Set(found.map((f) => f.id))
    for (const id of batch) if (returned.has(id)) p.misses.delete(id)
    await missed(p, batch.filter((id) => !returned.has(id)))
  }
}
