/** The budget ledger's public surface (DESIGN §3). */
export { createMemoryLedger } from './memory-ledger.ts'
export { createRedisLedger } from './redis-ledger.ts'
export type { BucketView, BudgetLedger, LimitSource } from './types.ts'
