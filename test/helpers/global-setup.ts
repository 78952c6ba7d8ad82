import { Redis } from 'ioredis'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string
  }
}

/** Checks once that the real Redis the integration tests need answers, and hands its URL to the tests. */
export default async function setup (project: TestProject): Promise<void> {
  const redisUrl = process.env.TOUCHLINE_REDIS_URL ?? 'redis://127.0.0.1:6379'
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 })
  try {
    await redis.connect()
    await redis.ping()
  } catch (err) {
    throw new Error(`integration tests need a Redis at ${redisUrl}: ${(err as Error).message}`)
  } finally {
    redis.disconnect()
  }
  project.provide('redisUrl', redisUrl)
}
