/** Runs the ledger contract against the memory and the Redis engine. */
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import { createRedisLedger } from '../../../src/budget/redis-ledger.ts'
import type { BudgetLedger } from '../../../src/budget/types.ts'
import { ledgerContract } from './contract.ts'
import { openTestRedis } from '../../helpers/redis.ts'

ledgerContract('memory', async () => {
  // One process: every "instance" is the same ledger, which is what sharing means in memory.
  let ledger: BudgetLedger | undefined
  return {
    open: (opts) => (ledger ??= createMemoryLedger(opts)),
    cleanup: async () => { await ledger?.close() }
  }
})

ledgerContract('redis', async () => {
  // Each instance on its own connection, as separate processes would be.
  const redis = openTestRedis()
  return {
    open: (opts) => createRedisLedger({ redis: redis.connect(), prefix: redis.prefix, ...opts }),
    cleanup: redis.close
  }
})
