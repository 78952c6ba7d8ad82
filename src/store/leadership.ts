/**
 * Leadership over Redis (docs/architecture.md, "Scale-out"): exactly one instance polls. The holder renews its lease every
 * `renewMs` and runs the poller; a follower tries to take it every `campaignMs`. When the holder dies, its
 * lease expires after `ttlMs` and a follower takes over within `ttlMs + campaignMs`.
 *
 * Two pollers must never run together, even when the holder's Redis link hangs (no error, no answer) while
 * its lease runs out and a follower takes it. So the holder keeps a local deadline: a lease granted by a
 * command sent at `t` lasts at least until `t + ttlMs` (Redis set the expiry after `t`), and the holder
 * stops polling at `t + ttlMs - marginMs` unless a later renewal succeeded first. It relies on no reply:
 * a timer fires at the deadline, whatever the pending command does. The margin covers the time the poller
 * takes to stop and the drift between the two clocks over one ttl. A renewal that fails (Redis down, a
 * command timeout) is retried every `campaignMs` until then, so a short blip does not stop polling.
 *
 * A renewal that finds the lease gone, not taken by another (Redis restarted without its data, or was
 * flushed), takes it again at once and keeps polling: nobody else can hold a lease that is free, and
 * stopping would cost the subscribers a lease period of silence for nothing. `onRetaken` tells the owner,
 * since whatever else that Redis held (the live store) is gone too.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { Lease } from './index.ts'

export interface LeaderOptions {
  lease: Lease
  name: string
  holderId: string
  /** @default 10_000 */
  ttlMs?: number
  /** How often the holder renews. @default ttlMs / 3 */
  renewMs?: number
  /**
   * How often a follower tries to take the lease: a lease that expired is taken within this much.
   * @default min(renewMs, 1000)
   */
  campaignMs?: number
  /** Stop polling this long before the lease could expire. @default max(ttlMs / 5, 200) */
  marginMs?: number
  log: Logger
  onElected: () => void
  onDeposed: () => Promise<void>
  /** The holder found its lease gone (not taken by another) and took it again without stopping. */
  onRetaken?: () => void
  /** @default Date.now */
  now?: () => number
}

export interface Leader {
  isLeader: () => boolean
  /** Stops campaigning; deposes and releases the lease when held. */
  stop: () => Promise<void>
}

export function startLeadership (opts: LeaderOptions): Leader {
  const ttl = opts.ttlMs ?? 10_000
  const renewEvery = opts.renewMs ?? Math.floor(ttl / 3)
  const campaignEvery = opts.campaignMs ?? Math.min(renewEvery, 1000)
  const margin = opts.marginMs ?? Math.max(Math.floor(ttl / 5), 200)
  const now = opts.now ?? Date.now
  const abort = new AbortController()
  let leader = false
  let deadline: NodeJS.Timeout | undefined
  let deposing: Promise<void> = Promise.resolve()

  function depose (why: string, err?: unknown): void {
    if (!leader) return
    leader = false
    clearTimeout(deadline)
    opts.log.warn({ holderId: opts.holderId, err }, why)
    deposing = opts.onDeposed().catch((e: unknown) => opts.log.error({ err: e }, 'stopping the poller failed'))
  }

  /** The lease is ours until at least `sentAt + ttl`: stop polling before then unless renewed. */
  function holdUntil (sentAt: number): void {
    clearTimeout(deadline)
    deadline = setTimeout(() => depose('lease not renewed before its local deadline: polling stopped'), sentAt + ttl - margin - now())
  }

  async function tick (): Promise<void> {
    const sentAt = now()
    const renewing = leader
    let held = await (renewing ? opts.lease.renew(opts.name, opts.holderId, ttl) : opts.lease.acquire(opts.name, opts.holderId, ttl))
    // Not renewed: taken by another (then acquire fails too), or gone with the data of a Redis that lost it.
    const retaken = renewing && !held && await opts.lease.acquire(opts.name, opts.holderId, ttl)
    held ||= retaken
    // The deadline may have fired meanwhile: the poller must have stopped before it can be started again.
    await deposing
    // A reply that comes after the local deadline proves nothing about now: the lease may be a successor's.
    const fresh = now() < sentAt + ttl - margin
    if (held && fresh) {
      holdUntil(sentAt)
      if (retaken && leader) {
        opts.log.warn({ holderId: opts.holderId }, 'lease found gone (Redis lost its data): taken again, still polling')
        opts.onRetaken?.()
      }
      if (!leader) {
        leader = true
        opts.log.info({ holderId: opts.holderId }, 'elected leader: polling')
        opts.onElected()
      }
    } else {
      depose(held ? 'lease renewed too late to trust: polling stopped' : 'leadership lost: polling stopped')
    }
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      let failed = false
      try {
        await tick()
      } catch (err) {
        // Redis unreachable or slow: the lease is still ours until the local deadline, which stops polling
        // if no renewal succeeds before it. Try again soon rather than at the next renewal.
        failed = true
        opts.log.warn({ err, holderId: opts.holderId, leader }, 'lease check failed')
      }
      await deposing
      await sleep(leader && !failed ? renewEvery : campaignEvery, undefined, { signal: abort.signal }).catch(() => {})
    }
  })()

  return {
    isLeader: () => leader,
    async stop () {
      abort.abort()
      await loop
      const held = leader
      depose('leadership given up: shutting down')
      await deposing
      if (held) await opts.lease.release(opts.name, opts.holderId).catch(() => false)
    }
  }
}
