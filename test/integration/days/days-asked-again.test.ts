/**
 * A read of the days asked for while one is under way (the store lost its log mid-read: the pages already
 * written went with it): the read under way finishes, and another of the whole window follows at once from
 * its first page, not an interval later. A poller over a stepped gateway's store, its upstream wrapped to ask for the new
 * read from inside the first read's first page.
 */
import { pino } from 'pino'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createPoller, type Poller } from '../../../src/poller/poller.ts'
import type { UpstreamClient } from '../../../src/upstream/index.ts'
import { FEED_LEAD_MS, SPEED, startSteppedGateway, type SteppedRig } from './harness.ts'

let rig: SteppedRig
let poller: Poller
/** The pages of the days asked for, in order: `1` starts a read. */
const pages: number[] = []
let askAgain = true

beforeAll(async () => {
  rig = await startSteppedGateway('memory')
  const upstream: UpstreamClient = {
    ...rig.gw.upstream,
    paginate: (path, query, opts) => {
      if (!path.startsWith('/football/fixtures/between/')) return rig.gw.upstream.paginate(path, query, opts)
      const inner = rig.gw.upstream.paginate(path, query, opts)
      return (async function * () {
        let n = Number(query?.page ?? 1)
        for await (const page of inner) {
          pages.push(n++)
          if (askAgain) {
            askAgain = false
            poller.forceReconcile({ days: true })
          }
          yield page
        }
      })() as never
    }
  }
  poller = createPoller({ upstream, ledger: rig.gw.ledger, store: rig.gw.store, log: pino({ level: 'silent' }), now: () => rig.clock.now, changedAt: rig.provider.changedAt }, {
    floorMs: 1000,
    feedLeadMs: FEED_LEAD_MS,
    clockRate: SPEED
  })
}, 60_000)

afterAll(async () => {
  await poller?.stop()
  await rig?.close()
})

it('a read of the days asked for during one is made right after it, from its first page', async () => {
  const readsStarted = (): number => pages.filter((p) => p === 1).length
  // The reconcile at the start, then the polls that overlap it: the first read of the days.
  for (let i = 0; i < 5 && readsStarted() === 0; i++) {
    rig.clock.now += 1000
    await poller.step()
  }
  expect(readsStarted()).toBe(1)
  const firstRead = pages.length
  expect(firstRead).toBeGreaterThan(1)
  // Asked for again during its first page: the next steps read the days again, whole.
  for (let i = 0; i < 10 && pages.length < 2 * firstRead; i++) {
    rig.clock.now += 1000
    await poller.step()
  }
  expect(readsStarted()).toBe(2)
  // Whole: every page of the window again (the store lost the days), from the first.
  expect(pages.slice(firstRead)).toEqual(pages.slice(0, firstRead))
}, 60_000)
