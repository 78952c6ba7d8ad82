import { createStore } from '../../../src/store/index.ts'
import { storeContract } from './contract.ts'
import { redisStores } from './helpers.ts'

storeContract('memory', async ({ maxLength, retainFinishedMs }) => {
  const store = createStore({ kind: 'memory', maxLength, retainFinishedMs })
  // One process: the "other instance" is the same store, so the race test exercises in-process interleaving.
  return { store, peer: async () => store, cleanup: () => store.close() }
})

storeContract('redis', async ({ maxLength, retainFinishedMs }) => {
  const redis = redisStores(undefined, { maxLength, retainFinishedMs })
  return { store: redis.open(), peer: async () => redis.open(), wipe: redis.wipe, cleanup: redis.close }
})
