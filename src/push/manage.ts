/**
 * Subscribing a device (docs/push.md): what `POST`, `GET` and `DELETE /v1/push/subscriptions` do once the
 * route has the key and a body of the right shape. The key's scope is the route's to check (with the
 * store's view of teams and fixtures, as for a WebSocket subscribe); this module checks the rest and stores.
 */
import type { ClientKey } from '../client-keys.ts'
import { PUSH_KINDS, type PushKind, type PushSubscribeInput, type PushSubscriptionViewBody } from '../wire/push.ts'
import { MAX_FOLLOWED } from '../wire/push.ts'
import { ownerOf, type StoredSubscription, type SubscriptionStore } from './subscriptions.ts'
import { checkEndpoint, checkKeys, type FieldProblem } from './validate.ts'

export type SubscribeResult =
  | { outcome: 'created' | 'replaced', view: PushSubscriptionViewBody }
  | { outcome: 'invalid', problem: FieldProblem }
  | { outcome: 'limit' }

export interface ManageOptions {
  store: SubscriptionStore
  allowLocal: boolean
  maxPerKey: number
  now?: () => number
}

const sorted = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b)

export function viewOf (sub: StoredSubscription): PushSubscriptionViewBody {
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

export async function subscribe (opts: ManageOptions, key: ClientKey, input: PushSubscribeInput): Promise<SubscribeResult> {
  const problem = checkSubscribe(input, opts.allowLocal)
  if (problem !== undefined) return { outcome: 'invalid', problem }
  const old = await opts.store.get(input.subscription.endpoint)
  const kinds: PushKind[] = PUSH_KINDS.filter((k) => (input.kinds ?? PUSH_KINDS).includes(k))
  const sub: StoredSubscription = {
    endpoint: input.subscription.endpoint,
    keys: { p256dh: input.subscription.keys.p256dh, auth: input.subscription.keys.auth },
    owner: ownerOf(key.name),
    follow: { teams: sorted(input.follow.teams), fixtures: sorted(input.follow.fixtures), leagues: sorted(input.follow.leagues) },
    kinds,
    muted: sorted(input.muted ?? []),
    created_at: old?.created_at ?? new Date((opts.now ?? Date.now)()).toISOString()
  }
  const put = await opts.store.put(sub, opts.maxPerKey)
  if (put === 'limit') return { outcome: 'limit' }
  return { outcome: put, view: viewOf(sub) }
}

/** The key's subscription at `endpoint`; another key's is not shown (undefined, as for none). */
export async function lookup (store: SubscriptionStore, key: ClientKey, endpoint: string): Promise<StoredSubscription | undefined> {
  const sub = await store.get(endpoint)
  return sub?.owner === ownerOf(key.name) ? sub : undefined
}

/** Deletes the key's subscription at `endpoint`; true when there was one. */
export async function unsubscribe (store: SubscriptionStore, key: ClientKey, endpoint: string): Promise<boolean> {
  return await lookup(store, key, endpoint) !== undefined && await store.remove(endpoint)
}
