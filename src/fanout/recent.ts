/**
 * The last records the hub routed, in log order, so that a replay from a recent cursor is answered from
 * memory. What it is for: a reconnect storm. When an instance stops (a rolling restart, a crash), its
 * clients come back to the others within a second or two, each resuming from a cursor a few seconds old;
 * read from the store, that is hundreds of log reads at once, and those that time out cost their clients a
 * `replay` recovered:false and a whole snapshot. From here they cost nothing but the filtering.
 *
 * Each record is kept as the hub routed it, parsed and as JSON, so a storm parses nothing: several hundred
 * clients replaying a few dozen records each would otherwise parse hundreds of MB (a fixture record carries
 * the fixture's whole image, about 8 KB of JSON, 10 KB parsed). The memory is bounded by the count and by
 * the JSON's size.
 *
 * The ring only ever holds a run without holes: a record that does not follow the last one (a new epoch,
 * or anything else unexpected) starts the ring again. A cursor it does not cover, too old or ahead of this
 * instance's tail, is read from the store as before.
 */
import { parseCursor } from '../store/record.ts'
import type { LogRecord } from '../store/types.ts'

/** A record as the hub routed it, and its JSON as the store returned it. */
export interface RecentRecord { readonly record: LogRecord, readonly json: string }

export class RecentLog {
  private readonly ring: Array<RecentRecord | undefined>
  /** Index in `ring` of the oldest record held. */
  private start = 0
  private size = 0
  private epoch = ''
  /** Offset of the newest record held. */
  private last = 0
  /** Characters of JSON held. */
  private bytes = 0

  /** At most `capacity` records and `maxBytes` characters of JSON (the oldest go first), never fewer than one. */
  constructor (readonly capacity: number, readonly maxBytes = 32 * 1024 * 1024) {
    this.ring = new Array<RecentRecord | undefined>(capacity)
  }

  /** Appends a record the hub routed. */
  add (record: LogRecord, json: string): void {
    const pos = parseCursor(record.cursor)
    if (pos === undefined) return this.clear()
    if (this.size > 0 && (pos.epoch !== this.epoch || pos.offset !== this.last + 1)) this.clear()
    this.epoch = pos.epoch
    this.last = pos.offset
    if (this.size === this.capacity) this.dropOldest()
    this.ring[(this.start + this.size) % this.capacity] = { record, json }
    this.size++
    this.bytes += json.length
    while (this.bytes > this.maxBytes && this.size > 1) this.dropOldest()
  }

  clear (): void {
    this.ring.fill(undefined)
    this.start = 0
    this.size = 0
    this.bytes = 0
  }

  private dropOldest (): void {
    this.bytes -= this.ring[this.start]?.json.length ?? 0
    this.ring[this.start] = undefined
    this.start = (this.start + 1) % this.capacity
    this.size--
  }

  /**
   * The records after `since` up to `head`, oldest first, when this ring holds every one of them (`head`
   * must be its newest record: the hub's head); undefined when it does not, and the store must be read.
   */
  between (since: string, head: string): RecentRecord[] | undefined {
    const from = parseCursor(since)
    const to = parseCursor(head)
    if (from === undefined || to === undefined || this.size === 0) return undefined
    if (from.epoch !== this.epoch || to.epoch !== this.epoch || to.offset !== this.last) return undefined
    const first = this.last - this.size + 1
    if (from.offset < first - 1 || from.offset > this.last) return undefined
    const out: RecentRecord[] = []
    for (let offset = from.offset + 1; offset <= this.last; offset++) {
      out.push(this.ring[(this.start + offset - first) % this.capacity] as RecentRecord)
    }
    return out
  }
}
