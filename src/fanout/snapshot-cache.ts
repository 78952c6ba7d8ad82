/**
 * Serialized live snapshots, shared by every subscribe and every `GET /v1/fixtures/live` that asks for the
 * same filter within the same key scope while nothing changes. Without it, a reconnect storm (every client
 * of a restarted instance subscribing at once) makes each client read, parse and serialize the whole live
 * snapshot; with it, that costs one store read per distinct filter, and concurrent askers share the read.
 *
 * Why an entry may be reused: its store head is read before its fixtures, and both after the hub had routed
 * `routedHead`. So the fixtures show every change up to the head, which is at or past `routedHead`. Any
 * client whose subscribe started at that routed head (or earlier) gets every later change through the hub,
 * so the snapshot leaves it no gap. Once the hub routes another record the entries no longer satisfy that
 * for new subscribes, and all of them are dropped.
 */
import { LRUCache } from 'lru-cache'
import { fixtureMatcher, readFilter, readSnapshot, type LiveFilter } from '../protocol/filter.ts'
import type { ClientKey } from '../client-keys.ts'
import type { LiveFixture } from '../wire-model/model.ts'
import type { LiveStore } from '../store/types.ts'

export interface Snapshot {
  /** The store head read before the fixtures: every change up to it is reflected in them. */
  cursor: string
  /** The matching live fixtures the key may see, as a JSON array, sorted by fixture id. */
  fixtures: Buffer
  /** The same fixtures, parsed. */
  list: readonly LiveFixture[]
  /** `fixtures` with every minute as the running clocks show it, until the first of them moves (hub.liveSnapshot). */
  current?: { json: Buffer, until: number }
}

export interface SnapshotCacheOptions {
  store: LiveStore
  /** How long an entry is reused while no change is routed. */
  ttlMs: number
  /** Bytes of entries kept at most; the least recently asked for go first. */
  maxBytes: number
  now?: () => number
}

/** A snapshot being read, or read. */
interface Entry {
  snapshot: Promise<Snapshot>
}

export class SnapshotCache {
  /**
   * Byte-bounded and aged by lru-cache: an entry counts its key until its read is done, then its fixtures
   * too; it is reused while not older than `ttlMs`, and the least recently asked for go first past
   * `maxBytes`.
   */
  private readonly entries: LRUCache<string, Entry>
  private routedHead: string | undefined

  constructor (private readonly opts: SnapshotCacheOptions) {
    const now = opts.now ?? Date.now
    // ttlResolution 0: each age is taken from `now` when asked (lru-cache otherwise keeps one reading for a ms).
    this.entries = new LRUCache<string, Entry>({ ttl: opts.ttlMs, ttlResolution: 0, maxSize: opts.maxBytes, perf: { now } })
  }

  /**
   * The snapshot for `filter` (undefined: every live fixture) as `key` may see it. `routedHead` is the
   * cursor of the last record the hub routed; a different one than last time drops every entry. Rejects
   * when the store read fails (the failure is not kept).
   */
  get (filter: LiveFilter | undefined, key: ClientKey, routedHead: string): Promise<Snapshot> {
    if (routedHead !== this.routedHead) {
      this.clear()
      this.routedHead = routedHead
    }
    const id = cacheKey(filter, key)
    const hit = this.entries.get(id)
    if (hit !== undefined) return hit.snapshot
    const entry: Entry = { snapshot: this.read(filter, key) }
    this.entries.set(id, entry, { size: id.length })
    entry.snapshot.then((snap) => {
      // Its fixtures now count too (which may evict others, or this one); its age runs from the ask.
      if (this.entries.peek(id) === entry) this.entries.set(id, entry, { size: id.length + snap.fixtures.length, noUpdateTTL: true })
    }, () => {
      if (this.entries.peek(id) === entry) this.entries.delete(id)
    })
    return entry.snapshot
  }

  /** Entries held (for tests and stats). */
  get size (): number {
    return this.entries.size
  }

  clear (): void {
    this.entries.clear()
  }

  private async read (filter: LiveFilter | undefined, key: ClientKey): Promise<Snapshot> {
    if (filter?.teams !== undefined && filter.teams.length > 0 && (filter.days ?? []).length === 0 && this.routedHead !== undefined) {
      // The store cannot filter by team: a team filter is cut from the key's whole scope, which is read once
      // for every team filter of that scope (a client varying `teams=` would otherwise make each request a
      // read of the whole live store). Same head, so the same no-gap guarantee.
      const whole = await this.get(readFilter(filter, key), key, this.routedHead)
      const list = whole.list.filter(fixtureMatcher(filter))
      return { cursor: whole.cursor, fixtures: Buffer.from(JSON.stringify(list)), list }
    }
    const { cursor, fixtures } = await readSnapshot(this.opts.store, filter, key)
    return { cursor, fixtures: Buffer.from(JSON.stringify(fixtures)), list: fixtures }
  }
}

const sortedIds = (ids: readonly number[] | undefined): string => [...new Set(ids ?? [])].sort((a, b) => a - b).join(',')

/**
 * One string per (filter, scope) with the same answer: ids deduplicated and sorted. An absent list reads as
 * an empty one unless both are absent (StoreFilter: no lists means everything).
 */
export function cacheKey (filter: LiveFilter | undefined, key: ClientKey): string {
  const scope = key.leagues === '*' ? '*' : sortedIds(key.leagues)
  const all = filter?.leagues === undefined && filter?.fixtures === undefined && filter?.teams === undefined && filter?.days === undefined
  const days = [...new Set((filter?.days ?? []).map((d) => `${d.from}-${d.to}`))].sort().join(',')
  return all ? `${scope}|*` : `${scope}|${filter?.all === true ? '*' : sortedIds(filter?.leagues)}|${sortedIds(filter?.fixtures)}|${sortedIds(filter?.teams)}|${days}`
}
