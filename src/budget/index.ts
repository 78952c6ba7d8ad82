/** The budget ledger's public surface (DESIGN §3). */
export { createMemoryLedger } from './memory-ledger.ts'
export { createRedisLedger, type RedisLedgerOptions } from './redis-ledger.ts'
export { budgetKeys, type BudgetKeys } from '../store/redis-keys.ts'
export { SAME_WINDOW_SLACK_MS } from './window.ts'
export type { BucketObservation, BucketView, BudgetLedger, LedgerOptions, LimitSource } from './types.ts'
