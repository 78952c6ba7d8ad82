/**
 * Leadership over Redis (DESIGN §7): exactly one instance polls. Each instance tries to take a lease every
 * `renewMs`; the holder renews it and runs the poller, and stops polling as soon as a renewal fails. When
 * the holder dies, its lease expires after `ttlMs` and another instance takes over within `ttlMs + renewMs`.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { Lease } from '../store/index.ts'

export interface LeaderOptions {
  lease: Lease
  name: string
  holderId: string
  /** @default 10_000 */
  ttlMs?: number
  /** @default ttlMs / 3 */
  renewMs?: number
  log: Logger
  onElected: () => void
  onDeposed: () => Promise<void>
}

export interface Leader {
  isLeader: () => boolean
  /** Stops campaigning; deposes and releases the lease when held. */
  stop: () => Promise<void>
}

export function startLeadership (opts: LeaderOptions): Leader {
  const ttl = opts.ttlMs ?? 10_000
  const every = opts.renewMs ?? Math.floor(ttl / 3)
  const abort = new AbortController()
  let leader = false

  async function tick (): Promise<void> {
    const held = leader
      ? await opts.lease.renew(opts.name, opts.holderId, ttl)
      : await opts.lease.acquire(opts.name, opts.holderId, ttl)
    if (held && !leader) {
      leader = true
      opts.log.info({ holderId: opts.holderId }, 'elected leader: polling')
      opts.onElected()
    } else if (!held && leader) {
      leader = false
      opts.log.warn({ holderId: opts.holderId }, 'leadership lost: polling stopped')
      await opts.onDeposed()
    }
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await tick()
      } catch (err) {
        // Redis unreachable: we cannot prove we still hold the lease, so stop polling until we can.
        opts.log.warn({ err }, 'lease check failed')
        if (leader) { leader = false; await opts.onDeposed() }
      }
      await sleep(every, undefined, { signal: abort.signal }).catch(() => {})
    }
  })()

  return {
    isLeader: () => leader,
    async stop () {
      abort.abort()
      await loop
      if (leader) {
        leader = false
        await opts.onDeposed()
        await opts.lease.release(opts.name, opts.holderId).catch(() => false)
      }
    }
  }
}
