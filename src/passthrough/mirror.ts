/**
 * The live mirror: the last livescores payloads the poller fetched, kept raw (as the upstream sent them),
 * so that `/football/livescores`, `/inplay` and `/latest` are answered without an upstream call and without
 * the loss that rebuilding upstream fixtures from the normalized LiveFixture would bring (LiveFixture drops
 * sport_id, venue_id, leg, participant records, score records...).
 *
 * How it is fed: `observe` wraps the upstream client handed to the poller; every successful poll of
 * `/football/livescores` (the poller's reconcile) or `/football/livescores/latest` made with the poller's
 * own query (includes `LIVE_INCLUDES`, no filters) updates it. Nothing in the poller changes.
 *
 * What it answers, while the last such poll is at most `freshMs` old (the upstream's 10 s `latest` window):
 * - livescores: the last reconcile's fixtures, each replaced by any newer copy a `latest` poll brought, plus
 *   fixtures first seen in `latest`. A fixture that left the upstream feed stays until the next reconcile
 *   (the poller reconciles every 30 s by default), and one that entered it without changing (15 minutes
 *   before kick-off) appears at the next reconcile.
 * - inplay: those of livescores whose `state_id` is a live state (the upstream's definition).
 * - latest: exactly the fixtures of the last `latest` poll, when that poll is itself fresh.
 * Only in-process: over Redis, instances that do not hold the poller lease see no polls and fall through to
 * the cache and upstream.
 */
import { LATEST_WINDOW_MS } from '@touchline/upstream-contract/livescores'
import { LIVE_STATE_IDS } from '@touchline/upstream-contract/states'
import type { Query, RequestOptions, UpstreamClient, UpstreamResponse } from '../upstream/index.ts'
import { LIVE_INCLUDES } from '../upstream/schemas.ts'

export type Rec = Record<string, unknown>

interface LiveSnapshot {
  /** Upstream fixture records with the `LIVE_INCLUDES` includes, ascending by id. */
  fixtures: readonly Rec[]
  /** `subscription` of the poll's envelope. */
  subscription?: unknown
}

/** What the passthrough needs from a live source. */
export interface LiveSource {
  /** The fixtures the upstream would return for a livescores endpoint now, or undefined when not fresh. */
  fixtures: (endpointId: string, now: number) => LiveSnapshot | undefined
}

export interface LiveMirror extends LiveSource {
  /** The client to hand the poller: the same client, feeding this mirror from successful livescores polls. */
  observe: (upstream: UpstreamClient) => UpstreamClient
  /** When the mirror last took in a poll (gateway clock), or null before the first. */
  freshness: () => number | null
}

export interface LiveMirrorOptions {
  /** The gateway's clock. @default Date.now */
  now?: () => number
  /** Age past which the mirror no longer answers: the upstream's `latest` window. @default LATEST_WINDOW_MS */
  freshMs?: number
}

const ALL = '/football/livescores'
const LATEST = '/football/livescores/latest'

/** Only the poller's own query feeds the mirror: a filtered or differently included payload is not "all". */
function isPollerQuery (query: Query | undefined): boolean {
  if (query === undefined) return false
  const names = Object.keys(query).filter((k) => query[k] !== undefined)
  return names.length === 1 && query.include === LIVE_INCLUDES
}

function recordsOf (data: unknown): Rec[] {
  if (data === undefined || data === null) return []
  const list = Array.isArray(data) ? data : [data]
  return list.filter((f): f is Rec => f !== null && typeof f === 'object' && typeof (f as Rec).id === 'number')
}

export function createLiveMirror (opts: LiveMirrorOptions = {}): LiveMirror {
  const now = opts.now ?? Date.now
  const freshMs = opts.freshMs ?? LATEST_WINDOW_MS
  let all = new Map<number, Rec>()
  let sorted: Rec[] | undefined
  let latestIds: number[] = []
  let snapshotAt: number | null = null
  let latestAt: number | null = null
  let updatedAt: number | null = null
  let subscription: unknown

  function feed (path: string, data: unknown, sub: unknown): void {
    const records = recordsOf(data)
    const at = now()
    if (path === ALL) {
      all = new Map(records.map((f) => [f.id as number, f]))
      snapshotAt = at
    } else {
      for (const f of records) all.set(f.id as number, f)
      latestIds = records.map((f) => f.id as number)
      latestAt = at
    }
    sorted = undefined
    updatedAt = at
    if (sub !== undefined) subscription = sub
  }

  const fresh = (at: number | null, t: number): boolean => at !== null && t - at <= freshMs

  return {
    observe (upstream) {
      const get = async <T>(path: string, query?: Query, reqOpts?: RequestOptions): Promise<UpstreamResponse<T>> => {
        const res = await upstream.get<T>(path, query, reqOpts)
        if ((path === ALL || path === LATEST) && isPollerQuery(query)) feed(path, res.envelope.data, res.envelope.subscription)
        return res
      }
      return { ...upstream, get }
    },

    fixtures (endpointId, t) {
      if (!fresh(updatedAt, t) || snapshotAt === null) return undefined
      sorted ??= [...all.values()].sort((a, b) => (a.id as number) - (b.id as number))
      const snapshot = (fixtures: readonly Rec[]): LiveSnapshot => subscription === undefined ? { fixtures } : { fixtures, subscription }
      if (endpointId === 'livescores.all') return snapshot(sorted)
      if (endpointId === 'livescores.inplay') return snapshot(sorted.filter((f) => LIVE_STATE_IDS.has(f.state_id as number)))
      if (endpointId === 'livescores.latest' && fresh(latestAt, t)) {
        return snapshot(latestIds.map((id) => all.get(id)).filter((f): f is Rec => f !== undefined).sort((a, b) => (a.id as number) - (b.id as number)))
      }
      return undefined
    },

    freshness: () => updatedAt
  }
}
