/** Runs the ledger contract against the memory and the Redis engine. */
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { inject } from 'vitest'
import { budgetKeys } from '../../../src/store/redis-keys.ts'
import { createMemoryLedger } from '../../../src/budget/memory-ledger.ts'
import { createRedisLedger } from '../../../src/budget/redis-ledger.ts'
import type { BudgetLedger } from '../../../src/budget/types.ts'
import { ledgerContract } from './contract.ts'
import { deleteMatching } from '../../helpers/redis.ts'

ledgerContract('memory', async () => {
  // One process: every "instance" is the same ledger, which is what sharing means in memory.
  let ledger: BudgetLedger | undefined
  return {
    open: (opts) => (ledger ??= createMemoryLedger(opts)),
    cleanup: async () => { await ledger?.close() }
  }
})

ledgerContract('redis', async () => {
  const url = inject('redisUrl')
  const prefix = `tl-test-${randomUUID()}:`
  const conns: Redis[] = []
  return {
    open (opts) {
      const redis = new Redis(url)
      conns.push(redis)
      return createRedisLedger({ redis, prefix, ...opts })
    },
    async cleanup () {
      const admin = new Redis(url)
      await deleteMatching(admin, budgetKeys(prefix).pattern)
      await Promise.all([...conns, admin].map((c) => c.quit()))
    }
  }
})
