/**
 * Where push subscriptions live (docs/push.md): in memory for one instance, in Redis for several (one hash
 * per shard, store/redis-keys.ts pushKeys). A subscription's identity is its endpoint; its device id (a
 * digest of the endpoint) names it in keys and alert state, and picks its shard. Each client key may hold
 * a bounded number, and each fan who posts with a signed token a bounded number of the key's (both caps are
 * checked atomically with the write, pushPut-3.lua). Every Redis call is guarded: an outage rejects as
 * StoreUnavailableError (503 on the routes).
 */
import { createHash } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { PushKind } from '../wire-model/webpush.ts'
import { pushKeys } from '../store/redis-keys.ts'
import { defineStoreCommands } from '../store/scripts.ts'
import { guarded } from '../store/unavailable.ts'

export interface Follow {
  teams: number[]
  fixtures: number[]
  leagues: number[]
}

export interface StoredDevice {
  endpoint: string
  keys: { p256dh: string, auth: string }
  /** The client key that posted it (its name, encoded as in Redis keys): its cap and its scope. */
  owner: string
  /** The fan (a token's `sub`) who posted it with a token: its cap, and who may see it. Absent: the key itself did. */
  fan?: string
  /** The leagues the fan's token was narrowed to: alerts of other leagues are not sent to this device. */
  fan_leagues?: number[]
  follow: Follow
  kinds: PushKind[]
  muted: number[]
  created_at: string
}

/** `limit`: the key holds its cap already; `fan_limit`: the fan holds theirs. */
export type PutResult = 'created' | 'replaced' | 'limit' | 'fan_limit'

export interface DeviceStore {
  readonly shards: number
  /**
   * Stores `sub` unless its key already holds `maxPerKey` others, or, when it has a `fan`, unless that fan
   * already holds `maxPerFan` others of the key (0: no fan cap). A fan's device that was not theirs before
   * (none, another fan's, the key's) is `created` for them.
   */
  put: (sub: StoredDevice, maxPerKey: number, maxPerFan?: number) => Promise<PutResult>
  get: (endpoint: string) => Promise<StoredDevice | undefined>
  /** True when there was one. */
  remove: (endpoint: string) => Promise<boolean>
  /** Every subscription of a shard, with the shard's version (it changes with every write to the shard). */
  shard: (shard: number) => Promise<{ version: string, subscriptions: StoredDevice[] }>
  /** The shard's version alone (cheap: workers reload the shard only when it moved). */
  version: (shard: number) => Promise<string>
  count: () => Promise<number>
}

/** A device's id: a digest of its endpoint, short enough for keys and alert state. */
export function deviceId (endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url').slice(0, 22)
}

/** The shard a device's alerts are sent by. */
export function shardOf (endpoint: string, shards: number): number {
  return createHash('sha256').update(endpoint).digest().readUInt32BE(0) % shards
}

/** The encoded name of a client key, as a subscription's `owner`. */
export const ownerOf = (keyName: string): string => pushKeys().ownerId(keyName)

export type DeviceStoreOptions = { kind: 'memory', shards: number } | { kind: 'redis', redis: Redis, prefix?: string, shards: number }

export function createDeviceStore (opts: DeviceStoreOptions): DeviceStore {
  return opts.kind === 'memory' ? memorySubscriptions(opts.shards) : redisSubscriptions(opts.redis, opts.shards, opts.prefix)
}

function parse (json: string): StoredDevice | undefined {
  try {
    return JSON.parse(json) as StoredDevice
  } catch {
    return undefined
  }
}

function redisSubscriptions (conn: Redis, shards: number, prefix?: string): DeviceStore {
  const redis = defineStoreCommands(conn)
  const keys = pushKeys(prefix)
  return {
    shards,
    async put (sub, maxPerKey, maxPerFan = 0) {
      const shard = shardOf(sub.endpoint, shards)
      const r = await guarded(redis.tlPushPut(
        keys.subscriptions(shard), keys.ownerPrefix + sub.owner, keys.versions, deviceId(sub.endpoint), JSON.stringify(sub), sub.owner, keys.ownerPrefix,
        maxPerKey, shard, sub.fan ?? '', maxPerFan, keys.fanPrefix
      ))
      return r === -2 ? 'fan_limit' : r === -1 ? 'limit' : r === 1 ? 'created' : 'replaced'
    },
    async get (endpoint) {
      const json = await guarded(redis.hget(keys.subscriptions(shardOf(endpoint, shards)), deviceId(endpoint)))
      const sub = json === null ? undefined : parse(json)
      return sub?.endpoint === endpoint ? sub : undefined
    },
    async remove (endpoint) {
      const shard = shardOf(endpoint, shards)
      return await guarded(redis.tlPushRemove(keys.subscriptions(shard), keys.versions, deviceId(endpoint), keys.ownerPrefix, shard, keys.fanPrefix)) === 1
    },
    async shard (shard) {
      // The version first: a write landing between the two reads leaves an older version with newer content,
      // which only makes the next check load the shard again.
      const version = await guarded(redis.hget(keys.versions, String(shard))) ?? '0'
      const values = await guarded(redis.hvals(keys.subscriptions(shard)))
      return { version, subscriptions: values.map(parse).filter((s): s is StoredDevice => s !== undefined) }
    },
    async version (shard) {
      return await guarded(redis.hget(keys.versions, String(shard))) ?? '0'
    },
    async count () {
      const p = redis.pipeline()
      for (let s = 0; s < shards; s++) p.hlen(keys.subscriptions(s))
      const counts = await guarded(p.exec()) ?? []
      return counts.reduce((n, [, c]) => n + Number(c ?? 0), 0)
    }
  }
}

function memorySubscriptions (shards: number): DeviceStore {
  const subs = Array.from({ length: shards }, () => new Map<string, StoredDevice>())
  const versions = new Array<number>(shards).fill(0)
  const owners = new Map<string, Set<string>>()
  const ownerSet = (owner: string): Set<string> => owners.get(owner) ?? owners.set(owner, new Set()).get(owner) as Set<string>
  // Each fan's devices, by `<owner>\n<fan>` (as the Redis store keeps a set per key and fan).
  const fans = new Map<string, Set<string>>()
  const fanSet = (owner: string, fan: string): Set<string> => fans.get(`${owner}\n${fan}`) ?? fans.set(`${owner}\n${fan}`, new Set()).get(`${owner}\n${fan}`) as Set<string>
  return {
    shards,
    async put (sub, maxPerKey, maxPerFan = 0) {
      const shard = shardOf(sub.endpoint, shards)
      const id = deviceId(sub.endpoint)
      const old = subs[shard]?.get(id)
      const set = ownerSet(sub.owner)
      // The same key and the same fan (or none): a replacement, counted once.
      const same = old?.owner === sub.owner && old.fan === sub.fan
      if (old?.owner !== sub.owner && set.size >= maxPerKey) return 'limit'
      if (sub.fan !== undefined && !same && maxPerFan > 0 && fanSet(sub.owner, sub.fan).size >= maxPerFan) return 'fan_limit'
      if (old !== undefined && old.owner !== sub.owner) ownerSet(old.owner).delete(id)
      if (old?.fan !== undefined && !same) fanSet(old.owner, old.fan).delete(id)
      subs[shard]?.set(id, structuredClone(sub))
      set.add(id)
      if (sub.fan !== undefined) fanSet(sub.owner, sub.fan).add(id)
      versions[shard] = (versions[shard] ?? 0) + 1
      return old === undefined || (sub.fan !== undefined && !same) ? 'created' : 'replaced'
    },
    async get (endpoint) {
      const sub = subs[shardOf(endpoint, shards)]?.get(deviceId(endpoint))
      return sub?.endpoint === endpoint ? structuredClone(sub) : undefined
    },
    async remove (endpoint) {
      const shard = shardOf(endpoint, shards)
      const id = deviceId(endpoint)
      const old = subs[shard]?.get(id)
      if (old === undefined) return false
      subs[shard]?.delete(id)
      ownerSet(old.owner).delete(id)
      if (old.fan !== undefined) fanSet(old.owner, old.fan).delete(id)
      versions[shard] = (versions[shard] ?? 0) + 1
      return true
    },
    async shard (shard) {
      return { version: String(versions[shard] ?? 0), subscriptions: [...subs[shard]?.values() ?? []].map((s) => structuredClone(s)) }
    },
    async version (shard) {
      return String(versions[shard] ?? 0)
    },
    async count () {
      return subs.reduce((n, m) => n + m.size, 0)
    }
  }
}
