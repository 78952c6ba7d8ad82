/**
 * Type test of the client library (checked by `tsc --noEmit`, not run) as `touchline/client`, the gateway
 * package's own export of the built @touchline/client: the API is typed as documented, misuse does not compile,
 * and its LiveFixture and Change, generated from the wire model, are the gateway's own (src/wire-model/model.ts).
 */
import * as api from 'touchline/client'
import { TouchlineClient, type ChangeFrame, type Change, type ClientStatus, type LiveFixture } from 'touchline/client'
import type { Change as GatewayChange, ChangeRecord, LiveFixture as GatewayFixture } from '../../../src/wire-model/model.ts'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const assert = <T extends true>(): T => true as T
/** Marks a value as used: the point is its declared type. */
const use = (..._values: unknown[]): undefined => undefined

assert<Same<LiveFixture, GatewayFixture>>()
// The client's fixture_updated may omit `previous` (delta frames carry only the new value).
assert<GatewayChange extends Change ? true : false>()
export const recordIsFrame = (r: ChangeRecord): Omit<ChangeFrame, 'type' | 'version'> => r

export async function usage (): Promise<ClientStatus> {
  const client = new TouchlineClient({ url: 'http://127.0.0.1:8080', key: 'demo', backoff: { capMs: 10_000, jitter: 'full' } })
  client.subscribe({ leagues: '*' }).subscribe({ teams: [53], kinds: ['score_changed', 'state_changed'], format: 'full' })
  const off = client.on('goal', (g) => {
    const side: 'home' | 'away' = g.side
    const name: string = g.fixture[side].name
    use(name)
  })
  off()
  client.on('change', ({ frame, fixture, replayed }) => {
    const version: number = fixture.version
    const kinds: string[] = frame.changes.map((c) => c.kind)
    use(version, kinds, replayed)
  })
  client.on('status', (s) => {
    if (s.state === 'refused') {
      const reason: 'unauthorized' | 'revoked' | 'origin_refused' | 'too_many_connections' | 'forbidden' | 'invalid_subscription' | 'limit_exceeded' = s.reason
      use(reason)
    }
  })
  client.on('state', (e) => { const phase: string = e.state.phase; use(phase) })
  client.on('fixture', (e) => { const removed: boolean = e.removed; use(removed) })
  const held: LiveFixture | undefined = client.fixtures.get(1)
  use(held)
  // The gateway's own helpers are @touchline/core's, not the client's API.
  // @ts-expect-error: not exported
  use(api.backoffDelay)
  // @ts-expect-error: not exported
  use(api.byMarket, api.marketKey)

  // @ts-expect-error: no such event
  client.on('goals', () => {})
  // @ts-expect-error: a goal event has no `kind`
  client.on('goal', (g) => g.kind)
  // @ts-expect-error: leagues is ids or "*"
  client.subscribe({ leagues: 'all' })
  // @ts-expect-error: not a change kind
  client.subscribe({ kinds: ['goal'] })
  // @ts-expect-error: kinds needs the full format (a delta must see every change of its fixture)
  client.subscribe({ kinds: ['score_changed'], format: 'delta' })
  client.on('goal', (g) => { const scorer: string | null | undefined = g.event?.player?.name; use(scorer) })
  client.on('change', ({ frame }) => {
    for (const c of frame.changes) if (c.kind === 'score_changed') use(c.goals?.map((e) => e.minute))
  })
  client.unsubscribe({ leagues: [271], teams: [53] }).unsubscribe({ leagues: '*' })
  // @ts-expect-error: unsubscribe takes no kinds (a kinds filter is changed by subscribe)
  client.unsubscribe({ kinds: ['clock'] })
  // @ts-expect-error: a key or getToken is required
  use(new TouchlineClient({ url: 'http://127.0.0.1:8080' }))
  // @ts-expect-error: a key or getToken, not both
  use(new TouchlineClient({ url: 'http://127.0.0.1:8080', key: 'k', getToken: () => 't' }))
  use(new TouchlineClient({ url: 'http://127.0.0.1:8080', getToken: async () => await Promise.resolve('t') }))
  return await client.connect()
}
