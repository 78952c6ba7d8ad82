/**
 * Odds across a gateway restart on Redis (docs/protocol.md, "Odds" and "Resume with since"): a subscriber
 * resumes from its last cursor on the next gateway over the same Redis, which picks the odds up from the
 * stored images after the upstream moved on while nothing polled. No odds change is lost or doubled: each
 * fixture's odds versions arrive one by one, and the subscriber ends with the provider's odds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { Frame } from '../../helpers/ws-client.ts'
import { OddsMirror, plannedMatch, providerMarkets, startRig, startUpstream, subscriber, type Rig, type Upstream } from './harness.ts'

const redis = useRedis({ per: 'file' })
let up: Upstream
const rigs: Rig[] = []
const mirror = new OddsMirror()
const replays: Frame[] = []

beforeAll(async () => {
  up = await startUpstream()
  const match = plannedMatch(up)
  const first = await startRig(up, { redisUrl: redis.url, prefix: redis.prefix })
  rigs.push(first)
  await first.runTo(match.at((match.line.start ?? 0) - 90), 1000)
  const before = await subscriber(first, {}, mirror)
  await first.runTo(match.at((match.line.start ?? 0) + 30 * 60), 1000)
  await waitFor('the odds frames of the first half so far', () => mirror.frames.length > 20, 5000)
  await first.close()
  await before.ws.closed
  // Twenty match minutes pass upstream with nothing polling: more than the `latest` window.
  up.clock.now += 20_000
  const second = await startRig(up, { redisUrl: redis.url, prefix: redis.prefix })
  rigs.push(second)
  const after = await subscriber(second, { since: mirror.cursor, snapshot: false }, mirror)
  after.ws.ws.on('message', (data) => { const f = JSON.parse(data.toString()) as Frame; if (f.type === 'replay') replays.push(f) })
  await second.runTo(match.at((match.line.end ?? 0) + 60), 1000)
  await waitFor('the last odds frames', () => mirror.frames.length > 0 && mirror.frames.at(-1)?.odds?.markets?.length !== undefined, 5000)
  after.ws.ws.close()
}, 120_000)

afterAll(async () => {
  for (const rig of rigs) await rig.close().catch(() => {})
  await up?.close()
})

describe('odds across a gateway restart on Redis', () => {
  it('resumes from the cursor with every odds change once: each fixture\'s versions one by one, across the restart', () => {
    expect(replays.map((f) => f.recovered)).toEqual([true])
    expect(mirror.gaps).toEqual([])
    const versions = new Map<number, number[]>()
    for (const f of mirror.frames) {
      const id = f.fixture_id as number
      versions.set(id, [...versions.get(id) ?? [], (f.odds?.version ?? f.version) as number])
    }
    expect(versions.size).toBeGreaterThanOrEqual(3)
    for (const [id, seen] of versions) {
      expect(seen, `fixture ${id}`).toEqual(seen.map((_, i) => (seen[0] as number) + i))
    }
  })

  it('ends with the provider\'s odds of every fixture still in play', async () => {
    let compared = 0
    for (const [id, image] of mirror.images) {
      const truth = await providerMarkets(up, id)
      if (truth.length === 0) continue
      expect(image.markets, `fixture ${id}`).toEqual(truth)
      compared++
    }
    expect(compared).toBeGreaterThanOrEqual(2)
  })
})
