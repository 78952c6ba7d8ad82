/** The budget ledger's public surface (docs/architecture.md, "The pipeline"). */
export { createMemoryLedger } from './memory-ledger.ts'
export { createRedisLedger } from './redis-ledger.ts'
export type { BucketView, BudgetLedger, LedgerOptions, LimitSource, PollerClaim, ReserveOptions, Spender } from './types.ts'
