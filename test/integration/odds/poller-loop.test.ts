/**
 * The odds poller's own loop, as a gateway runs it: each pause between polls listens for the poller's stop,
 * and takes that listener off again when it ends. One listener left per pause piles up on the one signal
 * (Node warns at 11: MaxListenersExceededWarning) and holds a closure per poll for the life of the process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { waitFor } from '../../helpers/wait.ts'
import { plannedMatch, startRig, startUpstream, type Rig, type Upstream } from './harness.ts'

let up: Upstream
let rig: Rig
const warnings: Error[] = []
const onWarning = (w: Error): void => { warnings.push(w) }

beforeAll(async () => {
  process.on('warning', onWarning)
  up = await startUpstream()
  rig = await startRig(up)
  // A match in play, in the gateway's live set: the odds poller follows it.
  const match = plannedMatch(up)
  await rig.runTo(match.at((match.line.start ?? 0) + 60), 30_000)
}, 120_000)

afterAll(async () => {
  process.off('warning', onWarning)
  await rig?.close()
  await up?.close()
})

it('runs pause after pause and leaves no abort listener behind', async () => {
  // Each poll makes one call (`latest`) and a few more; the provider's bucket is large, so the pauses are short.
  rig.odds.start()
  await waitFor('100 calls', () => rig.buckets.odds.length >= 100, 20_000)
  await rig.odds.stop()
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([])
}, 30_000)
