/**
 * Change frames as a consumer of the log receives them: a page of records turned into the frames its filter,
 * kinds and format call for, and the previous versions that `delta` frames are computed against. The hub
 * (fanout/outgoing.ts), `GET /v1/changes` and the webhook workers all send these same frames.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import { deltaChanges, deltaFrameJson } from '../live/delta.ts'
import type { ChangeKind, ChangeRecord, Format, LiveFixture } from '../wire/model.ts'
import type { ReadSinceResult } from '../store/types.ts'
import { fixtureMatcher, withKinds, type LiveFilter } from './filter.ts'

/**
 * The change frame for a record, from the record's JSON as the store serialized it: `{"type":"change",`
 * spliced in front of the record's own fields, so the fixture is never serialized again per event
 * (each change is serialized once per event, not once per subscriber).
 */
export function changeFrameJson (recordJson: string): string {
  return '{"type":"change",' + recordJson.slice(1)
}

/**
 * A record's `delta` frame against the fixture's previous version; the full change frame (from the record's
 * JSON) when that version is unknown, so the client replaces its copy.
 */
export function deltaFrame (prev: LiveFixture | undefined, record: ChangeRecord, json: string): string {
  const changes = deltaChanges(prev, record)
  return changes === undefined ? changeFrameJson(json) : deltaFrameJson(record, changes)
}

/**
 * The frames' JSON, in log order, from the JSON the store returned with the records (ReadSinceResult.json)
 * rather than serialized again. In `delta` format (never with kinds, see DELTA_WITH_KINDS) a fixture whose
 * previous version `versions` does not hold gets a full frame; `versions` is updated, so a consumer that
 * reads page after page may pass the same one.
 */
export function pageFrames (
  page: Pick<ReadSinceResult, 'records' | 'json'>, key: ClientKey, filter: LiveFilter | undefined,
  kinds: readonly ChangeKind[] | undefined, format: Format, versions: LastVersions = new LastVersions()
): string[] {
  const json = page.json?.length === page.records.length ? page.json : undefined
  const matches = fixtureMatcher(filter)
  const wanted = kinds === undefined ? undefined : new Set(kinds)
  const data: string[] = []
  page.records.forEach((record, i) => {
    // A fixture id of a league outside the key's scope matches in the store; the key must not see it.
    if (!leagueAllowed(key, record.league_id) || !matches(record.fixture)) return
    const recordJson = json?.[i] ?? JSON.stringify(record)
    if (format === 'delta') {
      data.push(deltaFrame(versions.swap(record), record, recordJson))
      return
    }
    const view = wanted === undefined ? record : withKinds(record, wanted)
    if (view === undefined) return
    data.push(changeFrameJson(view === record ? recordJson : JSON.stringify(view)))
  })
  return data
}

/**
 * The latest fixture the hub routed, per fixture id: the base of the next record's delta. Records arrive
 * in log order, so this is the previous version of the next record of that fixture (deltaChanges checks
 * the version, so a missed record only costs one full frame). Fixtures that leave the live feed are
 * forgotten; the map is capped in case some never do.
 */
export class LastVersions {
  private readonly fixtures = new Map<number, LiveFixture>()

  constructor (private readonly max = 20_000) {}

  /** Remembers the record's fixture; returns the one it replaces. */
  swap (record: ChangeRecord): LiveFixture | undefined {
    const prev = this.fixtures.get(record.fixture_id)
    this.fixtures.delete(record.fixture_id)
    if (record.changes.some((c) => c.kind === 'fixture_removed')) return prev
    this.fixtures.set(record.fixture_id, record.fixture)
    if (this.fixtures.size > this.max) {
      const oldest = this.fixtures.keys().next()
      if (oldest.done !== true) this.fixtures.delete(oldest.value)
    }
    return prev
  }

  /** A new log: versions of the old one are no base for anything. */
  clear (): void {
    this.fixtures.clear()
  }

  get size (): number {
    return this.fixtures.size
  }
}
