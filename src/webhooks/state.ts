/**
 * Where each endpoint's acknowledged cursor and last state live: in memory for a single instance, in Redis
 * (one hash per endpoint, store/redis-keys.ts) so that a restart or another instance resumes where delivery
 * stopped and `GET /v1/webhooks` answers the same on every instance. Writes by the delivering worker are
 * fenced by its lease in Redis (webhookSave-2.lua): a worker that lost its lease cannot move the cursor.
 * Every Redis call is guarded: an outage rejects as StoreUnavailableError (503 on the routes), not a raw
 * ioredis error.
 */
import type { Redis } from 'ioredis'
import { redisKeys, webhookKeys } from '../store/redis-keys.ts'
import { defineStoreCommands } from '../store/scripts.ts'
import { guarded } from '../store/unavailable.ts'

/** What an endpoint's worker is doing, as `GET /v1/webhooks` shows it. */
export type EndpointState = 'pending' | 'active' | 'retrying' | 'paused' | 'refused'

export interface EndpointStatus {
  state: EndpointState
  /** HTTP status of the last attempt; null when it got none (timeout, connection refused) or none was made. */
  last_status: number | null
  last_error: string | null
  last_attempt_at: string | null
  last_ack_at: string | null
  /** Since when attempts fail without a success in between; null while they succeed. */
  failing_since: string | null
}

export const PENDING: EndpointStatus = { state: 'pending', last_status: null, last_error: null, last_attempt_at: null, last_ack_at: null, failing_since: null }

export interface StoredEndpoint {
  /** Last acknowledged cursor; undefined for an endpoint never delivered to. */
  cursor: string | undefined
  status: EndpointStatus
  paused: boolean
}

export interface EndpointFields {
  cursor?: string
  status?: EndpointStatus
  paused?: boolean
}

export interface EndpointStore {
  read: (keyName: string, id: string) => Promise<StoredEndpoint>
  /** Writes the fields if `holderId` holds the endpoint's lease (always in memory). False: not written. */
  save: (keyName: string, id: string, holderId: string, fields: EndpointFields) => Promise<boolean>
  /** Clears `paused` whoever delivers (the resume route, a keys reload). */
  resume: (keyName: string, id: string) => Promise<void>
  /** Lease name of the endpoint, for `Lease` (Redis only). */
  leaseName: (keyName: string, id: string) => string
}

export type EndpointStoreOptions = { kind: 'memory' } | { kind: 'redis', redis: Redis, prefix?: string }

export function createEndpointStore (opts: EndpointStoreOptions): EndpointStore {
  return opts.kind === 'memory' ? memoryEndpoints() : redisEndpoints(opts.redis, opts.prefix)
}

function parseStatus (text: string | undefined): EndpointStatus {
  if (text === undefined) return PENDING
  try {
    return { ...PENDING, ...JSON.parse(text) as Partial<EndpointStatus> }
  } catch {
    return PENDING
  }
}

function encode (fields: EndpointFields): string[] {
  const out: string[] = []
  if (fields.cursor !== undefined) out.push('cursor', fields.cursor)
  if (fields.status !== undefined) out.push('status', JSON.stringify(fields.status))
  if (fields.paused !== undefined) out.push('paused', fields.paused ? '1' : '0')
  return out
}

function redisEndpoints (conn: Redis, prefix?: string): EndpointStore {
  const redis = defineStoreCommands(conn)
  const keys = webhookKeys(prefix)
  const leases = redisKeys(prefix)
  return {
    async read (keyName, id) {
      const h = await guarded(redis.hgetall(keys.endpoint(keyName, id)))
      return { cursor: h.cursor, status: parseStatus(h.status), paused: h.paused === '1' }
    },
    async save (keyName, id, holderId, fields) {
      const args = encode(fields)
      if (args.length === 0) return true
      return await guarded(redis.tlWebhookSave(leases.lease(keys.leaseName(keyName, id)), keys.endpoint(keyName, id), holderId, ...args)) === 1
    },
    async resume (keyName, id) {
      await guarded(redis.hset(keys.endpoint(keyName, id), 'paused', '0'))
    },
    leaseName: keys.leaseName
  }
}

function memoryEndpoints (): EndpointStore {
  const all = new Map<string, StoredEndpoint>()
  const id = (keyName: string, endpointId: string): string => `${keyName}\n${endpointId}`
  const get = (k: string): StoredEndpoint => all.get(k) ?? { cursor: undefined, status: PENDING, paused: false }
  return {
    async read (keyName, endpointId) {
      return { ...get(id(keyName, endpointId)) }
    },
    async save (keyName, endpointId, _holderId, fields) {
      const k = id(keyName, endpointId)
      const cur = get(k)
      all.set(k, { cursor: fields.cursor ?? cur.cursor, status: fields.status ?? cur.status, paused: fields.paused ?? cur.paused })
      return true
    },
    async resume (keyName, endpointId) {
      const k = id(keyName, endpointId)
      all.set(k, { ...get(k), paused: false })
    },
    leaseName: (keyName, endpointId) => webhookKeys().leaseName(keyName, endpointId)
  }
}
