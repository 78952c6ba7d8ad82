/**
 * The budget ledger contract (docs/architecture.md), run against both engines. `open()` returns ledgers that share
 * state: for Redis each is a separate connection, as separate gateway instances would be.
 */
import { describe, expect, it } from 'vitest'
import { SAME_WINDOW_SLACK_MS } from '../../../src/budget/window.ts'
import type { BudgetLedger, LedgerOptions, PollerClaim } from '../../../src/budget/types.ts'
import { WINDOW_MS } from '../../../packages/upstream-contract/src/hourly-window.ts'

export interface LedgerHarness {
  open: (opts?: LedgerOptions) => BudgetLedger
  cleanup: () => Promise<void>
}

const T0 = 1_700_000_000_000

export function ledgerContract (name: string, setup: () => Promise<LedgerHarness>): void {
  describe(`${name} budget ledger`, () => {
    /** A fresh harness with a movable clock shared by every ledger it opens. */
    async function fixture (opts: LedgerOptions = {}) {
      const harness = await setup()
      const clock = { t: T0 }
      const open = (more: LedgerOptions = {}) => harness.open({ now: () => clock.t, ...opts, ...more })
      return { clock, open, ledger: open(), harness }
    }

    it('records a bucket and reads it back, one entity apart from another', async () => {
      const { ledger, harness } = await fixture()
      try {
        expect(await ledger.get('Fixture')).toBeUndefined()
        await ledger.record('Fixture', { remaining: 2990, resetsInSeconds: 3000, limit: 3000 }, T0)
        await ledger.record('League', { remaining: 10, resetsInSeconds: 60 }, T0)
        expect(await ledger.get('Fixture')).toEqual({
          entity: 'Fixture',
          remaining: 2990,
          limit: 3000,
          limitSource: 'reported',
          resetsAt: T0 + 3_000_000,
          updatedAt: T0,
          expired: false,
          pollersNeed: 0,
          spent: { pollers: 0, passthrough: 0 }
        })
        const all = await ledger.all()
        expect(all.map((b) => [b.entity, b.remaining])).toEqual([['Fixture', 2990], ['League', 10]])
        // No total reported: a lower bound learned from the one counted call.
        expect(all[1]).toMatchObject({ limit: 11, limitSource: 'learned' })
      } finally {
        await harness.cleanup()
      }
    })

    it('keeps the lowest remaining within a window, whatever order responses arrive in', async () => {
      const { ledger, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 100, resetsInSeconds: 1800 }, T0)
        await ledger.record('Fixture', { remaining: 103, resetsInSeconds: 1799 }, T0 + 1500)
        expect((await ledger.get('Fixture'))?.remaining).toBe(100)
        await ledger.record('Fixture', { remaining: 97, resetsInSeconds: 1795 }, T0 + 5000)
        const view = await ledger.get('Fixture')
        // The latest reset estimate wins (T0 + 1.5 s + 1799 s): never assume the reset comes early.
        expect(view).toMatchObject({ remaining: 97, resetsAt: T0 + 1_800_500, updatedAt: T0 + 5000 })
      } finally {
        await harness.cleanup()
      }
    })

    it('resets when the window changes, extrapolates past the reset, and ignores a late old response', async () => {
      const { ledger, clock, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 2, resetsInSeconds: 60, limit: 3000 }, T0)
        clock.t = T0 + 60_000
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 3000, expired: true })
        // The first response of the next window: resetsAt an hour on, far beyond the slack.
        await ledger.record('Fixture', { remaining: 2999, resetsInSeconds: 3600 }, clock.t)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 2999, limit: 3000, resetsAt: clock.t + WINDOW_MS, expired: false })
        // A response of the old window that was slow to arrive changes nothing.
        await ledger.record('Fixture', { remaining: 1, resetsInSeconds: 0 }, clock.t)
        expect((await ledger.get('Fixture'))?.remaining).toBe(2999)
        // Within the slack it is the same window.
        await ledger.record('Fixture', { remaining: 3000, resetsInSeconds: 3600 + SAME_WINDOW_SLACK_MS / 1000 }, clock.t)
        expect((await ledger.get('Fixture'))?.remaining).toBe(2999)
      } finally {
        await harness.cleanup()
      }
    })

    it('ignores a late old-window response after reserve opened the next window on its own estimate', async () => {
      const { ledger, clock, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 5, resetsInSeconds: 60, limit: 3000 }, T0)
        clock.t = T0 + 61_000
        // The old window has ended: reserve opens the next one (estimated) and counts 50 calls in it.
        for (let i = 0; i < 50; i++) expect(await ledger.reserve('Fixture')).toBe(true)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 2950, expired: false })
        // A response of the old window, slow to arrive, must neither rewind resetsAt nor forget the 50.
        await ledger.record('Fixture', { remaining: 4, resetsInSeconds: 0 }, clock.t)
        const after = await ledger.get('Fixture')
        expect(after).toMatchObject({ remaining: 2950, expired: false })
        expect(after?.resetsAt).toBeGreaterThan(clock.t + WINDOW_MS - SAME_WINDOW_SLACK_MS)
      } finally {
        await harness.cleanup()
      }
    })

    it('reserves down to the floor, per call or from the option', async () => {
      const { ledger, open, harness } = await fixture({ floor: (entity) => entity === 'Fixture' ? 2 : 0 })
      try {
        await ledger.record('Fixture', { remaining: 5, resetsInSeconds: 600 }, T0)
        expect(await ledger.reserve('Fixture')).toBe(true)
        expect(await ledger.reserve('Fixture', 2)).toBe(true)
        expect(await ledger.reserve('Fixture')).toBe(false)
        expect((await ledger.get('Fixture'))?.remaining).toBe(2)
        // The passthrough may dig into the poller's reserve.
        expect(await ledger.reserve('Fixture', 1, { floor: 0 })).toBe(true)
        expect(await open().reserve('Fixture', 2, { floor: 0 })).toBe(false)
        expect((await ledger.get('Fixture'))?.remaining).toBe(1)
        // A response reporting more than we counted does not undo the reservations.
        await ledger.record('Fixture', { remaining: 3, resetsInSeconds: 599 }, T0 + 1000)
        expect((await ledger.get('Fixture'))?.remaining).toBe(1)
        await expect(ledger.reserve('Fixture', 0)).rejects.toThrow(RangeError)
      } finally {
        await harness.cleanup()
      }
    })

    it('never blocks on missing information: unknown buckets and ended windows without a limit', async () => {
      const { ledger, clock, harness } = await fixture()
      try {
        expect(await ledger.reserve('Team')).toBe(true)
        expect(await ledger.get('Team')).toBeUndefined()
        // A bare 429: no limit, and no counted call to learn one from.
        await ledger.record('Team', { remaining: 0, resetsInSeconds: 10, calls: 0 }, T0)
        expect(await ledger.reserve('Team')).toBe(false)
        clock.t = T0 + 10_000
        expect(await ledger.reserve('Team')).toBe(true)
        expect((await ledger.get('Team'))?.remaining).toBe(0)
      } finally {
        await harness.cleanup()
      }
    })

    it('opens the next window on a reservation after the reset, then takes the upstream reset time', async () => {
      const { ledger, clock, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 0, resetsInSeconds: 10, limit: 20 }, T0)
        clock.t = T0 + 10_000
        expect(await ledger.reserve('Fixture')).toBe(true)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 19, resetsAt: clock.t + WINDOW_MS, expired: false })
        // The upstream window had opened 5 minutes earlier (another client): its reset wins, our count stays.
        await ledger.record('Fixture', { remaining: 19, resetsInSeconds: 3300 }, clock.t + 100)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 19, resetsAt: clock.t + 100 + 3_300_000 })
      } finally {
        await harness.cleanup()
      }
    })

    it('lets exactly `remaining` of 50 concurrent reservations through', async () => {
      const { ledger, open, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 20, resetsInSeconds: 600 }, T0)
        // Five instances racing, ten reservations each.
        const peers = Array.from({ length: 5 }, () => open())
        const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (peers[i % 5] as BudgetLedger).reserve('Fixture')))
        expect(results.filter(Boolean)).toHaveLength(20)
        expect((await ledger.get('Fixture'))?.remaining).toBe(0)
      } finally {
        await harness.cleanup()
      }
    })

    it('shares buckets between instances', async () => {
      const { ledger, open, harness } = await fixture()
      try {
        await ledger.record('Fixture', { remaining: 10, resetsInSeconds: 600 }, T0)
        const other = open()
        expect(await other.reserve('Fixture', 4)).toBe(true)
        expect((await ledger.get('Fixture'))?.remaining).toBe(6)
        expect((await other.all()).map((b) => b.entity)).toEqual(['Fixture'])
      } finally {
        await harness.cleanup()
      }
    })

    it('learns the limit from blocks without a total: lowest remaining plus calls counted, highest seen', async () => {
      const { ledger, clock, harness } = await fixture()
      try {
        // First seen mid-window (another process spent 59): a lower bound only.
        await ledger.record('Fixture', { remaining: 60, resetsInSeconds: 600 }, T0)
        expect(await ledger.get('Fixture')).toMatchObject({ limit: 61, limitSource: 'learned' })
        // A reordered response (served earlier, arrives later) never raises it above the truth.
        await ledger.record('Fixture', { remaining: 58, resetsInSeconds: 599 }, T0 + 1000)
        await ledger.record('Fixture', { remaining: 59, resetsInSeconds: 599 }, T0 + 1000)
        expect((await ledger.get('Fixture'))?.limit).toBe(61)
        // A 429 is not a counted call.
        await ledger.record('Fixture', { remaining: 0, resetsInSeconds: 598, calls: 0 }, T0 + 2000)
        expect((await ledger.get('Fixture'))?.limit).toBe(61)
        // Past the reset the view extrapolates to the learned limit, but a reservation does not open a
        // window on it (it may be low): the first response of the next window fills the ledger in.
        clock.t = T0 + 600_000
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 61, expired: true, limitSource: 'learned' })
        expect(await ledger.reserve('Fixture')).toBe(true)
        expect((await ledger.get('Fixture'))?.expired).toBe(true)
        // A window seen from its first call teaches the plan's limit: 120.
        for (let i = 1; i <= 3; i++) await ledger.record('Fixture', { remaining: 120 - i, resetsInSeconds: 3600 - i }, clock.t + i * 1000)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 117, limit: 120, limitSource: 'learned' })
      } finally {
        await harness.cleanup()
      }
    })

    it('takes the configured limit over a reported or learned one, and opens the next window on it', async () => {
      const { ledger, clock, harness } = await fixture({ limit: 150 })
      try {
        await ledger.record('Fixture', { remaining: 100, resetsInSeconds: 60 }, T0)
        await ledger.record('League', { remaining: 100, resetsInSeconds: 60, limit: 3000 }, T0)
        expect(await ledger.get('Fixture')).toMatchObject({ limit: 150, limitSource: 'configured' })
        expect(await ledger.get('League')).toMatchObject({ limit: 150, limitSource: 'configured' })
        clock.t = T0 + 60_000
        expect(await ledger.reserve('Fixture', 10)).toBe(true)
        expect(await ledger.get('Fixture')).toMatchObject({ remaining: 140, expired: false, limitSource: 'configured' })
      } finally {
        await harness.cleanup()
      }
      const plain = await fixture()
      try {
        await plain.ledger.record('Fixture', { remaining: 100, resetsInSeconds: 60, limit: 3000 }, T0)
        expect(await plain.ledger.get('Fixture')).toMatchObject({ limit: 3000, limitSource: 'reported' })
      } finally {
        await plain.harness.cleanup()
      }
    })

    describe('the share rule: the pollers\' claims first, the passthrough beyond them', () => {
      /** The livescore poller at a 1 s floor: 3600 polls an hour, a reconcile of two calls kept, 20 % left to the passthrough. */
      const LIVE: PollerClaim = { perHour: 3600, reserve: 0.2, lumps: 2, ttlMs: 60_000 }
      const passthrough = { by: 'passthrough' } as const

      /** Passthrough reservations of one call each until one is refused: how many were taken. */
      async function drain (ledger: BudgetLedger, entity: string, max = 10_000): Promise<number> {
        let taken = 0
        while (taken < max && await ledger.reserve(entity, 1, passthrough)) taken++
        return taken
      }

      it('refuses the passthrough below the need of the claims (pace times the time left, plus lumps), never the pollers', async () => {
        const { ledger, open, clock, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 5000, resetsInSeconds: 3600, limit: 5000 }, T0)
          await ledger.claim('Fixture', 'livescores', LIVE)
          // 3600 polls until the reset and the two lumps: 1398 for the passthrough, from any instance.
          expect(await ledger.get('Fixture')).toMatchObject({ remaining: 5000, pollersNeed: 3602 })
          const other = open()
          expect(await other.reserve('Fixture', 1398, passthrough)).toBe(true)
          expect(await other.reserve('Fixture', 1, passthrough)).toBe(false)
          expect(await ledger.reserve('Fixture', 1, passthrough)).toBe(false)
          // The pollers' own calls are not held by their claim.
          expect(await ledger.reserve('Fixture', 2)).toBe(true)
          expect(await ledger.get('Fixture')).toMatchObject({ remaining: 3600, pollersNeed: 3602, spent: { pollers: 2, passthrough: 1398 } })
          // Half an hour on (the poller claiming all along), the pollers need 1802 of what is left: what they
          // did not spend is the passthrough's.
          clock.t = T0 + 1_800_000
          await ledger.claim('Fixture', 'livescores', LIVE)
          expect((await ledger.get('Fixture'))?.pollersNeed).toBe(1802)
          expect(await drain(other, 'Fixture')).toBe(1798)
          expect(await ledger.get('Fixture')).toMatchObject({ remaining: 1802, spent: { pollers: 2, passthrough: 3196 } })
        } finally {
          await harness.cleanup()
        }
      })

      it('holds against fifty concurrent passthrough reservations from five instances', async () => {
        const { ledger, open, harness } = await fixture()
        try {
          await ledger.record('InplayOdd', { remaining: 3622, resetsInSeconds: 3600, limit: 5000 }, T0)
          await ledger.claim('InplayOdd', 'odds', LIVE)
          const peers = Array.from({ length: 5 }, () => open())
          const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (peers[i % 5] as BudgetLedger).reserve('InplayOdd', 1, passthrough)))
          expect(results.filter(Boolean)).toHaveLength(20)
          expect(await ledger.get('InplayOdd')).toMatchObject({ remaining: 3602, spent: { pollers: 0, passthrough: 20 } })
        } finally {
          await harness.cleanup()
        }
      })

      it('sums the claims of a bucket, one per claimant (a new leader\'s replaces the old), apart from other buckets', async () => {
        const { ledger, open, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 5000, resetsInSeconds: 3600, limit: 5000 }, T0)
          await ledger.record('InplayOdd', { remaining: 5000, resetsInSeconds: 3600, limit: 5000 }, T0)
          await ledger.claim('InplayOdd', 'odds', { ...LIVE, lumps: 20 })
          expect((await ledger.get('Fixture'))?.pollersNeed).toBe(0)
          expect((await ledger.get('InplayOdd'))?.pollersNeed).toBe(3620)
          // The next leader claims on another instance, at another pace: it replaces the claim.
          await open().claim('InplayOdd', 'odds', { ...LIVE, perHour: 1800, lumps: 10 })
          expect((await ledger.get('InplayOdd'))?.pollersNeed).toBe(1810)
          await ledger.claim('InplayOdd', 'other', { ...LIVE, perHour: 100, lumps: 0 })
          expect((await ledger.all()).map((b) => [b.entity, b.pollersNeed])).toEqual([['Fixture', 0], ['InplayOdd', 1910]])
        } finally {
          await harness.cleanup()
        }
      })

      it('forgets a claim that was not made again in time: a poller that stopped keeps nothing', async () => {
        const { ledger, clock, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 5000, resetsInSeconds: 3600, limit: 5000 }, T0)
          await ledger.claim('Fixture', 'livescores', LIVE)
          clock.t = T0 + 59_999
          expect((await ledger.get('Fixture'))?.pollersNeed).toBeGreaterThan(0)
          clock.t = T0 + 60_000
          expect((await ledger.get('Fixture'))?.pollersNeed).toBe(0)
          expect(await ledger.reserve('Fixture', 5000, passthrough)).toBe(true)
        } finally {
          await harness.cleanup()
        }
      })

      it('on a bucket smaller than the pollers\' pace, slows them to their share and leaves the passthrough its reserve', async () => {
        const { ledger, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 120, resetsInSeconds: 3600, limit: 120 }, T0)
          await ledger.claim('Fixture', 'livescores', LIVE)
          // 96 of the 120 are the pollers' (80 %), capped there lumps and all: 24 for the passthrough.
          expect((await ledger.get('Fixture'))?.pollersNeed).toBe(96)
          expect(await drain(ledger, 'Fixture')).toBe(24)
        } finally {
          await harness.cleanup()
        }
      })

      it('caps the claims by a learned limit; past the reset with only a learned limit, counts nothing until an answer', async () => {
        const { ledger, clock, harness } = await fixture()
        try {
          // Seen from its first call: 300 learned.
          await ledger.record('Fixture', { remaining: 299, resetsInSeconds: 3600 }, T0)
          await ledger.claim('Fixture', 'livescores', { ...LIVE, ttlMs: 2 * 3_600_000 })
          expect(await ledger.get('Fixture')).toMatchObject({ limit: 300, limitSource: 'learned', pollersNeed: 240 })
          expect(await drain(ledger, 'Fixture')).toBe(59)
          clock.t = T0 + 3_600_000
          // The limit may be low (learned mid-window): no window is opened on it, and the first answer counts.
          expect(await ledger.reserve('Fixture', 1, passthrough)).toBe(true)
          expect((await ledger.get('Fixture'))?.expired).toBe(true)
          await ledger.record('Fixture', { remaining: 298, resetsInSeconds: 3600 }, clock.t)
          expect(await drain(ledger, 'Fixture')).toBe(58)
        } finally {
          await harness.cleanup()
        }
      })

      it('at the window\'s end, leaves the claims the whole of the window a passthrough call opens', async () => {
        const { ledger, clock, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 0, resetsInSeconds: 10, limit: 100 }, T0)
          await ledger.claim('Fixture', 'livescores', { perHour: 60, reserve: 0.2, lumps: 1, ttlMs: 3_600_000 })
          clock.t = T0 + 10_000
          // The next window: 100, of which the claim needs 61. A refusal opens nothing.
          expect(await ledger.reserve('Fixture', 40, passthrough)).toBe(false)
          expect(await ledger.get('Fixture')).toMatchObject({ expired: true, remaining: 100, pollersNeed: 61 })
          expect(await ledger.reserve('Fixture', 39, passthrough)).toBe(true)
          expect(await ledger.get('Fixture')).toMatchObject({ expired: false, remaining: 61, resetsAt: clock.t + WINDOW_MS, spent: { pollers: 0, passthrough: 39 } })
        } finally {
          await harness.cleanup()
        }
      })

      it('counts what each side spent in the window, and starts over with the next one', async () => {
        const { ledger, clock, harness } = await fixture()
        try {
          await ledger.record('Fixture', { remaining: 50, resetsInSeconds: 60, limit: 3000 }, T0)
          expect(await ledger.reserve('Fixture', 3)).toBe(true)
          expect(await ledger.reserve('Fixture', 2, passthrough)).toBe(true)
          // Answers of the same window keep the tallies.
          await ledger.record('Fixture', { remaining: 47, resetsInSeconds: 59 }, T0 + 1000)
          expect((await ledger.get('Fixture'))?.spent).toEqual({ pollers: 3, passthrough: 2 })
          // The first answer of the next window starts them over.
          clock.t = T0 + 61_000
          await ledger.record('Fixture', { remaining: 2999, resetsInSeconds: 3600 }, clock.t)
          expect((await ledger.get('Fixture'))?.spent).toEqual({ pollers: 0, passthrough: 0 })
          expect(await ledger.reserve('Fixture', 1, passthrough)).toBe(true)
          expect((await ledger.get('Fixture'))?.spent).toEqual({ pollers: 0, passthrough: 1 })
        } finally {
          await harness.cleanup()
        }
      })

      it('rejects a claim that is not finite, non-negative figures', async () => {
        const { ledger, harness } = await fixture()
        try {
          await expect(ledger.claim('Fixture', 'livescores', { ...LIVE, perHour: Number.NaN })).rejects.toThrow(TypeError)
          await expect(ledger.claim('Fixture', 'livescores', { ...LIVE, reserve: 2 })).rejects.toThrow(TypeError)
        } finally {
          await harness.cleanup()
        }
      })
    })

    it('rejects observations that are not finite numbers', async () => {
      const { ledger, harness } = await fixture()
      try {
        await expect(ledger.record('Fixture', { remaining: Number.NaN, resetsInSeconds: 1 }, T0)).rejects.toThrow(TypeError)
        await expect(ledger.record('Fixture', { remaining: 1, resetsInSeconds: Infinity }, T0)).rejects.toThrow(TypeError)
        expect(await ledger.get('Fixture')).toBeUndefined()
      } finally {
        await harness.cleanup()
      }
    })
  })
}
