/**
 * The store's Lua scripts (scripts/*.lua), typed as ioredis commands and registered by the shared loader
 * (util/redis-scripts.ts). The lease, the webhook endpoints' state and the push subscriptions use them too.
 */
import type { RedisKey, Result } from 'ioredis'
import { scriptLoader } from '../util/redis-scripts.ts'

type Arg = string | number

/** apply-11.lua and applyImage-5.lua: `[1, epoch, offset]` when applied, `[0, currentVersion]` when rejected, `[2]` when fenced. */
type ApplyReply = [1, string, number] | [0, number] | [2]
/** readSince-2.lua: `[0, epoch, head]` when the cursor is lost, else `[1, epoch, head, last, ...json]`. */
type ReadSinceReply = [0, string, number] | [1, string, number, number, ...string[]]

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tlApply: (
      meta: RedisKey, log: RedisKey, versions: RedisKey, fixtures: RedisKey, liveIndex: RedisKey, leagueLive: RedisKey,
      retired: RedisKey, lease: RedisKey, oddsVersions: RedisKey, odds: RedisKey, schedule: RedisKey, fixtureId: Arg, leagueId: Arg, expectedVersion: Arg,
      live: Arg, fixtureJson: string, recordHead: string, newEpoch: string, maxLength: Arg, channel: string, leagueLivePrefix: string,
      atMs: Arg, forgetAtMs: Arg, forgetBatch: Arg, fenceHolder: string, seenEpoch: string, seenOffset: Arg, kickoffMs: Arg
    ) => Result<ApplyReply, Context>
    tlScheduled: (schedule: RedisKey, fixtures: RedisKey, fromMs: Arg, toMs: Arg) => Result<string[], Context>
    tlApplyImage: (
      meta: RedisKey, log: RedisKey, versions: RedisKey, images: RedisKey, lease: RedisKey, imageId: Arg, leagueId: Arg,
      expectedVersion: Arg, imageJson: string, recordHead: string, newEpoch: string, maxLength: Arg, channel: string, fenceHolder: string,
      seenEpoch: string, seenOffset: Arg, logFixtureId: Arg
    ) => Result<ApplyReply, Context>
    tlEnsureEpoch: (meta: RedisKey, log: RedisKey, newEpoch: string, seenEpoch: string, seenOffset: Arg) => Result<[string, number], Context>
    tlReadSince: (
      meta: RedisKey, log: RedisKey, epoch: string, offset: Arg, limit: Arg, scanLimit: Arg,
      all: Arg, leagues: string, fixtures: string
    ) => Result<ReadSinceReply, Context>
    tlLiveFixtures: (
      fixtures: RedisKey, live: RedisKey, all: Arg, leagues: string, fixtureIds: string, leagueLivePrefix: string
    ) => Result<string[], Context>
    /** `[logLength, phase, count, phase, count, ...]` */
    tlLiveSummary: (live: RedisKey, fixtures: RedisKey, log: RedisKey) => Result<Array<number | string>, Context>
    tlLeaseAcquire: (key: RedisKey, holderId: string, ttlMs: Arg) => Result<0 | 1, Context>
    tlLeaseRenew: (key: RedisKey, holderId: string, ttlMs: Arg) => Result<0 | 1, Context>
    tlLeaseRelease: (key: RedisKey, holderId: string) => Result<0 | 1, Context>
    tlWebhookSave: (lease: RedisKey, endpoint: RedisKey, holderId: string, ...fields: string[]) => Result<0 | 1, Context>
    tlPushPut: (subs: RedisKey, owner: RedisKey, versions: RedisKey, deviceId: string, json: string, ownerId: string, ownerPrefix: string, max: Arg, shard: Arg, fan: string, maxPerFan: Arg, fanPrefix: string) => Result<-2 | -1 | 0 | 1, Context>
    tlPushRemove: (subs: RedisKey, versions: RedisKey, deviceId: string, ownerPrefix: string, shard: Arg, fanPrefix: string) => Result<0 | 1, Context>
    tlPushClaim: (sent: RedisKey, recent: RedisKey, alertId: string, nowMs: Arg, windowMs: Arg, ceiling: Arg, keepMs: Arg) => Result<0 | 1 | 2, Context>
  }
}

/** Command name -> script file (without `.lua`); the number after the dash is numberOfKeys. */
const SCRIPTS = {
  tlApply: 'apply-11',
  tlScheduled: 'scheduled-2',
  tlApplyImage: 'applyImage-5',
  tlEnsureEpoch: 'ensureEpoch-2',
  tlReadSince: 'readSince-2',
  tlLiveFixtures: 'liveFixtures-2',
  tlLiveSummary: 'liveSummary-3',
  tlLeaseAcquire: 'leaseAcquire-1',
  tlLeaseRenew: 'leaseRenew-1',
  tlLeaseRelease: 'leaseRelease-1',
  tlWebhookSave: 'webhookSave-2',
  tlPushPut: 'pushPut-3',
  tlPushRemove: 'pushRemove-2',
  tlPushClaim: 'pushClaim-2'
} as const

/** Defines every store command on a connection (once per connection) and returns it, typed. */
export const defineStoreCommands = scriptLoader(new URL('./scripts/', import.meta.url), SCRIPTS)
