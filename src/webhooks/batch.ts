/**
 * What a worker sends next, read from the log after its acknowledged cursor: a batch of change frames (the
 * same frames the WebSocket sends, in log order, filtered by the endpoint's filter and its key's scope), a
 * `resync` with the current snapshot when the cursor is past the log's reach or from a lost log, or nothing
 * but a new cursor when the records read did not match.
 */
import { randomUUID } from 'node:crypto'
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { LiveStore } from '../store/types.ts'
import type { LeagueStandings } from '../wire-model/model.ts'
import type { WebhookConfig } from '../webhook-settings.ts'
import { narrowOdds, readFilter, readSnapshot, scopeFilter, type LiveFilter } from '../protocol/filter.ts'
import { takeOf, type Take } from '../wire-model/take.ts'
import { pageFrames, LastVersions } from '../protocol/frames.ts'

/** A request body ready to send, retried as is (same delivery id) until acknowledged. */
export interface Delivery {
  kind: 'changes' | 'resync'
  id: string
  body: string
  /** The cursor to store once acknowledged. */
  cursor: string
  /** Change frames in the body (0 for a resync). */
  count: number
}

export type Next =
  | { kind: 'deliver', delivery: Delivery }
  /** Nothing to send: records up to `cursor` did not match. `more`: more records are already in the log. */
  | { kind: 'skip', cursor: string, more: boolean }

export class BatchReader {
  private readonly filter: LiveFilter | undefined
  /** What the endpoint takes: its kinds, and the odds when it asks for them. */
  private readonly take: Take
  /** Fixtures as the receiver holds them after its acknowledged deliveries: the base of `delta` frames. */
  private readonly versions = new LastVersions()

  constructor (private readonly store: LiveStore, private readonly key: ClientKey, private readonly hook: WebhookConfig, private readonly batch: number) {
    this.filter = scopeFilter(hook, key)
    this.take = takeOf(hook)
  }

  /** Reads what follows `cursor`. Rejects when the store does. */
  async next (cursor: string): Promise<Next> {
    const page = await this.store.readSince(cursor, { ...readFilter(this.filter, this.key), limit: this.batch })
    if (!page.recovered) return { kind: 'deliver', delivery: await this.resync() }
    const frames = pageFrames(page, this.key, this.filter, this.take, this.hook.format, this.versions)
    if (frames.length === 0) return { kind: 'skip', cursor: page.cursor, more: page.more }
    const id = randomUUID()
    const head = JSON.stringify({ type: 'changes', webhook_id: this.hook.id, delivery_id: id, cursor: page.cursor })
    return { kind: 'deliver', delivery: { kind: 'changes', id, cursor: page.cursor, count: frames.length, body: `${head.slice(0, -1)},"data":[${frames.join(',')}]}` } }
  }

  /**
   * The snapshot of the endpoint's filter, with the head read before it: the receiver replaces what it holds
   * and the next batch starts after that head, so it misses nothing and deltas restart from full frames.
   */
  private async resync (): Promise<Delivery> {
    this.versions.clear()
    const snap = await readSnapshot(this.store, this.filter, this.key)
    for (const f of snap.fixtures) this.versions.swap({ cursor: snap.cursor, fixture_id: f.id, league_id: f.league_id, at: f.updated_at, live: true, changes: [], fixture: f })
    // An endpoint that takes odds gets the fixtures' odds images too, as a WebSocket snapshot carries them.
    const oddsTake = this.take.odds
    const odds = oddsTake === undefined ? undefined : (await this.store.getOdds(snap.fixtures.map((f) => f.id))).map((image) => narrowOdds(image, oddsTake))
    for (const image of odds ?? []) this.versions.swap({ cursor: snap.cursor, fixture_id: image.fixture_id, league_id: image.league_id, at: image.updated_at, changes: [], odds: image })
    const standings = await this.tables()
    const id = randomUUID()
    const body = JSON.stringify({ type: 'resync', webhook_id: this.hook.id, delivery_id: id, cursor: snap.cursor, recovered: false, fixtures: snap.fixtures, ...(odds !== undefined ? { odds } : {}), ...(standings !== undefined ? { standings } : {}) })
    return { kind: 'resync', id, cursor: snap.cursor, count: 0, body }
  }

  /**
   * For an endpoint that takes standings: the live tables of the leagues it follows (by id, or every league
   * its key may see), as the `standings` frames route them; undefined otherwise.
   */
  private async tables (): Promise<LeagueStandings[] | undefined> {
    if (this.take.standings !== true) return undefined
    const leagues = this.filter === undefined || this.filter.all === true ? undefined : this.filter.leagues
    if (leagues !== undefined && leagues.length === 0) return []
    return (await this.store.getStandings(leagues)).filter((t) => leagueAllowed(this.key, t.league_id))
  }
}
