import { describe, expect, it } from 'vitest'
import { MirrorClient } from '../../helpers/mirror-client.ts'
import { runMatchDay } from '../../helpers/match-day.ts'
import { startPush } from './harness.ts'
import { lastFixtureCursor } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'

/** Waits until every client received the change at `cursor` (the last one of the live set the store appended). */
async function settle (clients: MirrorClient[], cursor: string): Promise<void> {
  await waitFor(`every client at ${cursor}`, () => clients.every((c) => c.cursor === cursor), 10_000)
}

describe('format delta over WebSocket, through a simulated match day', () => {
  it('a delta subscriber ends with the same fixtures as a full subscriber and as the store', async () => {
    const push = await startPush()
    // The dataset's leagues, known before the day starts: a throwaway run of zero minutes gives them.
    const { leagues } = await runMatchDay(push.store, { minutes: 0 })
    const url = push.wsUrl()
    const full = await MirrorClient.open({ url, leagues, format: 'full' })
    const delta = await MirrorClient.open({ url, leagues, format: 'delta' })
    await runMatchDay(push.store, { minutes: 20 })
    await settle([full, delta], await lastFixtureCursor(push.store))
    expect(delta.gaps).toBe(0)
    expect(delta.frames).toBe(full.frames)
    expect(full.frames).toBeGreaterThan(1000)
    const ids = [...full.fixtures.keys()].sort((a, b) => a - b)
    expect([...delta.fixtures.keys()].sort((a, b) => a - b)).toEqual(ids)
    const stored = await push.store.getFixtures(ids)
    for (const f of stored) {
      expect(delta.fixtures.get(f.id)).toEqual(f)
      expect(full.fixtures.get(f.id)).toEqual(f)
    }
    // What the format is for: the same changes in a fraction of the bytes (bench:bandwidth has the figures;
    // a fixture's first frame is whole in both formats, which keeps this above a tenth).
    expect(delta.bytes).toBeLessThan(full.bytes * 0.2)
    full.close()
    delta.close()
  }, 240_000) // a 20-minute match day written and fanned out twice: 13 s alone, over 90 s beside the browser tests and two busy loops

  it('a lost frame shows as a version jump; the client resubscribes with since and recovers', async () => {
    const push = await startPush()
    const { leagues } = await runMatchDay(push.store, { minutes: 0 })
    const lost = new Set<number>()
    const seen = new Set<string>()
    const delta = await MirrorClient.open({
      url: push.wsUrl(),
      leagues,
      format: 'delta',
      // Loses the 200th and the 400th change frame it is sent (the replay brings them back).
      lose: (frame) => {
        if (seen.has(frame.cursor)) return false
        seen.add(frame.cursor)
        if (seen.size !== 200 && seen.size !== 400) return false
        lost.add(frame.fixture_id)
        return true
      }
    })
    await runMatchDay(push.store, { minutes: 10 })
    // One more change to each fixture that lost a frame, in case the lost one was its last of the day (in the
    // live set, so that it reaches a subscriber of leagues even after the fixture left it).
    for (const id of lost) {
      const f = await push.store.getFixture(id)
      if (f === undefined) continue
      await push.store.apply({ fixture: { ...f, name: `${f.name ?? ''}!` }, changes: [{ kind: 'fixture_updated', fields: { name: { value: `${f.name ?? ''}!`, previous: f.name } } }], expectedVersion: f.version, live: true, at: new Date().toISOString() })
    }
    await settle([delta], await push.store.head())
    expect(lost.size).toBeGreaterThan(0)
    // Each lost frame shows as a jump at the fixture's next frame: a delta one makes the client resubscribe
    // with since; a whole one (the hub had no base for a delta, e.g. after the fixture left the feed) heals it.
    expect(delta.jumps).toBeGreaterThanOrEqual(lost.size)
    expect(delta.gaps).toBeLessThanOrEqual(delta.jumps)
    const stored = await push.store.getFixtures([...delta.fixtures.keys()])
    expect(stored.length).toBe(delta.fixtures.size)
    for (const f of stored) expect(delta.fixtures.get(f.id)).toEqual(f)
    delta.close()
  }, 240_000)
})
