/**
 * Subscribing a device (docs/push.md): what `POST`, `GET` and `DELETE /v1/push/subscriptions` do once the
 * route has the key and a body of the right shape. The key's scope is the route's to check (with the
 * store's view of teams and fixtures, as for a WebSocket subscribe); this module checks the rest and stores.
 *
 * A request made with a fan's signed token (docs/tokens.md) acts for that fan: the device it posts records
 * the fan beside the key, within the fan's cap, and it finds and deletes that fan's devices only. A request
 * made with the key itself finds and deletes every device of the key, its fans' too.
 */
import type { ClientKey } from '../client-keys.ts'
import { PUSH_KINDS, type PushKind, type PushSubscribeInput, type PushSubscriptionViewBody } from '../wire-model/webpush.ts'
import { MAX_FOLLOWED } from '../wire-model/webpush.ts'
import { ownerOf, type StoredDevice, type DeviceStore } from './devices.ts'
import { checkEndpoint, checkKeys, type FieldProblem } from './validate.ts'

export type SubscribeResult =
  | { outcome: 'created' | 'replaced', view: PushSubscriptionViewBody }
  | { outcome: 'invalid', problem: FieldProblem }
  | { outcome: 'limit' }
  | { outcome: 'fan_limit' }

/** The fan a request's token names (its `sub`), their device cap on the key, and the leagues the token narrows to. */
export interface PushFan {
  name: string
  maxDevices: number
  leagues: number[] | '*'
}

export interface ManageOptions {
  store: DeviceStore
  allowLocal: boolean
  maxPerKey: number
  now?: () => number
}

const sorted = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b)

export function viewOf (sub: StoredDevice): PushSubscriptionViewBody {
  return { endpoint: sub.endpoint, follow: sub.follow, kinds: sub.kinds, muted: sub.muted, created_at: sub.created_at }
}

/** The problem of a valid-looking body that the schema cannot see, or undefined. */
export function checkSubscribe (input: PushSubscribeInput, allowLocal: boolean): FieldProblem | undefined {
  const endpoint = checkEndpoint(input.subscription.endpoint, allowLocal)
  if (endpoint !== undefined) return endpoint
  const keys = checkKeys(input.subscription.keys)
  if (keys !== undefined) return keys
  const { teams, fixtures, leagues } = input.follow
  if (teams.length + fixtures.length + leagues.length === 0) return { field: 'follow', message: 'name at least one team, fixture or league' }
  if (teams.length + fixtures.length + leagues.length > MAX_FOLLOWED) return { field: 'follow', message: `at most ${MAX_FOLLOWED} teams, fixtures and leagues in all` }
  return undefined
}

/** Who holds a device: the fan who posted it with a token, else the key (undefined). */
type Holder = Pick<StoredDevice, 'fan' | 'fan_leagues'>

/**
 * Stores the device for the key, or for the key's fan when `fan` is given (within their cap). The key
 * posting its own fan's device again changes what it follows and leaves it the fan's.
 */
export async function subscribe (opts: ManageOptions, key: ClientKey, input: PushSubscribeInput, fan?: PushFan): Promise<SubscribeResult> {
  const problem = checkSubscribe(input, opts.allowLocal)
  if (problem !== undefined) return { outcome: 'invalid', problem }
  const old = await opts.store.get(input.subscription.endpoint)
  const owner = ownerOf(key.name)
  const holder: Holder = fan !== undefined
    ? { fan: fan.name, ...(fan.leagues === '*' ? {} : { fan_leagues: sorted(fan.leagues) }) }
    : old?.owner === owner && old.fan !== undefined ? { fan: old.fan, ...(old.fan_leagues !== undefined ? { fan_leagues: old.fan_leagues } : {}) } : {}
  // A fan's device that was someone else's starts anew for them: nothing of its past is shown.
  const kept = fan === undefined || (old?.owner === owner && old.fan === fan.name)
  const kinds: PushKind[] = PUSH_KINDS.filter((k) => (input.kinds ?? PUSH_KINDS).includes(k))
  const sub: StoredDevice = {
    endpoint: input.subscription.endpoint,
    keys: { p256dh: input.subscription.keys.p256dh, auth: input.subscription.keys.auth },
    owner,
    ...holder,
    follow: { teams: sorted(input.follow.teams), fixtures: sorted(input.follow.fixtures), leagues: sorted(input.follow.leagues) },
    kinds,
    muted: sorted(input.muted ?? []),
    created_at: (kept ? old?.created_at : undefined) ?? new Date((opts.now ?? Date.now)()).toISOString()
  }
  const put = await opts.store.put(sub, opts.maxPerKey, fan?.maxDevices ?? 0)
  if (put === 'limit') return { outcome: 'limit' }
  if (put === 'fan_limit') return { outcome: 'fan_limit' }
  return { outcome: put, view: viewOf(sub) }
}

/**
 * The key's subscription at `endpoint`, or with `fan`, that fan's; another key's, another fan's and (for a
 * fan) the key's own are not shown (undefined, as for none).
 */
export async function lookup (store: DeviceStore, key: ClientKey, endpoint: string, fan?: string): Promise<StoredDevice | undefined> {
  const sub = await store.get(endpoint)
  return sub?.owner === ownerOf(key.name) && (fan === undefined || sub.fan === fan) ? sub : undefined
}

/** Deletes the key's subscription at `endpoint` (with `fan`, only if it is that fan's); true when there was one. */
export async function unsubscribe (store: DeviceStore, key: ClientKey, endpoint: string, fan?: string): Promise<boolean> {
  return await lookup(store, key, endpoint, fan) !== undefined && await store.remove(endpoint)
}
