/**
 * A poller's claim on its bucket (budget/share.ts): what the passthrough must leave it until the reset, kept
 * in the ledger so that every instance's passthrough sees it. Made again when its figures change, or before
 * it would lapse during the pause ahead; otherwise once every half CLAIM_TTL_MS or so, not at every poll (one
 * Redis write saved a second).
 */
import type { BudgetLedger, PollerClaim } from '../budget/index.ts'
import { CLAIM_TTL_MS } from '../budget/share.ts'

export interface ClaimKeeper {
  /**
   * Claims `claim` (its ttl is replaced by the pause ahead plus CLAIM_TTL_MS) unless the one in force already
   * says the same and covers the pause ahead with half CLAIM_TTL_MS to spare. A ledger that cannot be written
   * is no reason to stop: the reservation that follows finds it down and says so.
   */
  keep: (claim: Omit<PollerClaim, 'ttlMs'>, pauseMs?: number) => Promise<void>
  /** Forgets what was claimed, so the next `keep` claims at once (a poller started again, a new leader). */
  forget: () => void
}

export function createClaimKeeper (ledger: BudgetLedger, entity: string, claimant: string, now: () => number): ClaimKeeper {
  let held: { figures: string, until: number } | undefined
  return {
    async keep (claim, pauseMs = 0) {
      const figures = `${claim.perHour}/${claim.reserve}/${claim.lumps}`
      const at = now()
      if (held !== undefined && held.figures === figures && held.until >= at + pauseMs + CLAIM_TTL_MS / 2) return
      const ttlMs = Math.max(0, pauseMs) + CLAIM_TTL_MS
      try {
        await ledger.claim(entity, claimant, { ...claim, ttlMs })
        held = { figures, until: at + ttlMs }
      } catch {
        held = undefined
      }
    },
    forget () { held = undefined }
  }
}
