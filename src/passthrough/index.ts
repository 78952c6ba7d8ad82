/** The REST passthrough's public surface (DESIGN §5). The HTTP binding is src/http/passthrough.ts. */
export { createPassthrough, type Passthrough, type PassthroughDeps, type PassthroughOptions } from './service.ts'
export { createMemoryCache, createRedisCache, type MemoryCacheOptions, type RedisCacheOptions, type ResponseCache } from './cache.ts'
export { createMemoryQuota, createRedisQuota, type QuotaState, type QuotaStore } from './quota.ts'
export { createLiveMirror, type LiveMirror, type LiveMirrorOptions, type LiveSource } from './live.ts'
export { passthroughKeys, type PassthroughKeys } from '../store/redis-keys.ts'
export { DEFAULT_TTL, type TtlPolicy } from './ttl.ts'
export type { PassRequest } from './request.ts'
export type { Reply } from './replies.ts'
