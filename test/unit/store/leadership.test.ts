import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { startLeadership, type Leader } from '../../../src/store/leadership.ts'
import { createLease, type Lease } from '../../../src/store/index.ts'
import { waitFor } from '../../helpers/wait.ts'

const log = pino({ level: 'silent' })
const leaders: Leader[] = []
afterEach(async () => { for (const l of leaders.splice(0)) await l.stop() })

/** A lease whose calls hang (a frozen link) while `frozen`, and are answered late when it thaws. */
function freezable (lease: Lease): Lease & { freeze: () => void, thaw: () => void } {
  let frozen: Array<() => void> | undefined
  const gate = async (): Promise<void> => { if (frozen !== undefined) await new Promise<void>((resolve) => frozen?.push(resolve)) }
  return {
    acquire: async (...a) => { await gate(); return await lease.acquire(...a) },
    renew: async (...a) => { await gate(); return await lease.renew(...a) },
    release: async (...a) => await lease.release(...a),
    holder: async (n) => await lease.holder(n),
    freeze: () => { frozen ??= [] },
    thaw: () => { const waiting = frozen ?? []; frozen = undefined; for (const go of waiting) go() }
  }
}

function start (lease: Lease, holderId: string, events: string[], ttlMs = 1000): Leader {
  const leader = startLeadership({
    onRetaken: () => { events.push(`${holderId} retook at ${Date.now()}`) },
    lease,
    name: 'poller',
    holderId,
    ttlMs,
    renewMs: 200,
    campaignMs: 50,
    marginMs: 300,
    log,
    onElected: () => { events.push(`${holderId} elected at ${Date.now()}`) },
    onDeposed: async () => { events.push(`${holderId} deposed at ${Date.now()}`) }
  })
  leaders.push(leader)
  return leader
}

describe('leadership with a local deadline', () => {
  it('a leader whose lease calls hang stops before its lease expires, then a follower takes over: never two leaders', async () => {
    const shared = createLease({ kind: 'memory' })
    const a = freezable(shared)
    const events: string[] = []
    const la = start(a, 'a', events)
    await sleep(100)
    expect(la.isLeader()).toBe(true)
    const lb = start(shared, 'b', events)
    const overlaps: number[] = []
    const timer = setInterval(() => { if (la.isLeader() && lb.isLeader()) overlaps.push(Date.now()) }, 5)

    a.freeze()
    await waitFor('a stops leading', () => !la.isLeader(), 3000, 5)
    // Stopped on its own, every call still hanging, while its lease was still held: nobody else had it.
    expect(await shared.holder('poller')).toBe('a')
    await waitFor('b leads', () => lb.isLeader(), 3000, 5)

    // The frozen calls are answered late: a stale grant must not make `a` lead again beside `b`.
    a.thaw()
    await sleep(500)
    clearInterval(timer)
    expect(overlaps).toEqual([])
    expect(la.isLeader()).toBe(false)
    expect(lb.isLeader()).toBe(true)
  })

  it('a renewal that fails once (a blip) does not stop polling while the deadline is still ahead', async () => {
    const shared = createLease({ kind: 'memory' })
    let failNext = false
    let renewedAfterBlip = 0
    const flaky: Lease = {
      ...shared,
      renew: async (...a) => {
        if (failNext) { failNext = false; throw new Error('Command timed out') }
        const renewed = await shared.renew(...a)
        if (!failNext && blipped) renewedAfterBlip++
        return renewed
      }
    }
    let blipped = false
    const events: string[] = []
    // A lease of 5 s: a busy machine's event-loop stalls stay far inside its local deadline.
    const la = start(flaky, 'a', events, 5000)
    await waitFor('a leads', () => la.isLeader(), 5000, 5)
    failNext = true
    blipped = true
    // The failed renewal, then two that succeed after it: the blip is behind the holder.
    await waitFor('two renewals after the failed one', () => !failNext && renewedAfterBlip >= 2, 10_000, 5)
    expect(la.isLeader()).toBe(true)
    expect(events.filter((e) => e.includes('deposed'))).toEqual([])
  })

  it('a holder whose lease vanished (Redis restarted empty, flushed) takes it again at its next renewal without stopping', async () => {
    const shared = createLease({ kind: 'memory' })
    const events: string[] = []
    const la = start(shared, 'a', events)
    await waitFor('a leads', () => la.isLeader(), 3000, 5)
    // The key is gone behind the holder's back, as after a restart without persistence.
    expect(await shared.release('poller', 'a')).toBe(true)
    await waitFor('a takes the lease again', () => events.some((e) => e.startsWith('a retook')), 3000, 5)
    expect(await shared.holder('poller')).toBe('a')
    expect(la.isLeader()).toBe(true)
    expect(events.filter((e) => e.includes('deposed'))).toEqual([])
  })

  it('a holder whose lease another instance took meanwhile stops: it takes only a free lease', async () => {
    const shared = createLease({ kind: 'memory' })
    const events: string[] = []
    const la = start(shared, 'a', events)
    await waitFor('a leads', () => la.isLeader(), 3000, 5)
    await shared.release('poller', 'a')
    expect(await shared.acquire('poller', 'b', 60_000)).toBe(true)
    await waitFor('a stops leading', () => !la.isLeader(), 3000, 5)
    expect(await shared.holder('poller')).toBe('b')
    expect(events.filter((e) => e.includes('retook'))).toEqual([])
  })
})
