/** The REST passthrough's public surface (docs/passthrough.md). The HTTP binding is src/http/passthrough.ts. */
export { createPassthrough, type Passthrough } from './service.ts'
export type { PassthroughOptions } from './types.ts'
export { createMemoryCache, createRedisCache, type ResponseCache } from './cache.ts'
export { createMemoryQuota, createRedisQuota, type QuotaStore } from './quota.ts'
export { createLiveMirror, type LiveMirror } from './mirror.ts'
