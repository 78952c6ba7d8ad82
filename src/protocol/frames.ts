/**
 * Change frames as a consumer of the log receives them: a page of records turned into the frames its filter,
 * kinds and format call for, and the previous versions that `delta` frames are computed against. The hub
 * (fanout/outgoing.ts), `GET /v1/changes` and the webhook workers all send these same frames.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import { deltaChanges, deltaFrameJson } from './delta.ts'
import type { ChangeRecord, DeltaOddsFrame, FixtureOdds, Format, LiveFixture, OddsRecord } from '../wire-model/model.ts'
import { isOddsRecord, isStandingsRecord, type LogRecord } from '../store/types.ts'
import { recordMatcher, takeView, type LiveFilter, type Take } from './filter.ts'

/**
 * The change frame for a record, from the record's JSON as the store serialized it: `{"type":"change",`
 * spliced in front of the record's own fields, so the fixture is never serialized again per event
 * (each change is serialized once per event, not once per subscriber).
 */
export function changeFrameJson (recordJson: string): string {
  return '{"type":"change",' + recordJson.slice(1)
}

/** The `odds` frame for an odds record, from its JSON as the store serialized it (see changeFrameJson). */
export function oddsFrameJson (recordJson: string): string {
  return '{"type":"odds",' + recordJson.slice(1)
}

/** The `standings` frame for a league's table, from its JSON as the store serialized it (see changeFrameJson). */
export function standingsFrameJson (recordJson: string): string {
  return '{"type":"standings",' + recordJson.slice(1)
}

/** A log record's full frame: `change` for a fixture's record, `odds` for its odds', `standings` for a league's table. */
export function fullFrameJson (record: LogRecord, recordJson: string): string {
  if (isOddsRecord(record)) return oddsFrameJson(recordJson)
  return isStandingsRecord(record) ? standingsFrameJson(recordJson) : changeFrameJson(recordJson)
}

/**
 * A record's `delta` frame against the previous version of what it changes (the fixture, or its odds
 * image); the full frame (from the record's JSON) when that version is unknown, so the client replaces its copy.
 * A league's table goes whole in both formats.
 */
export function deltaFrame (prev: LiveFixture | FixtureOdds | undefined, record: LogRecord, json: string): string {
  if (isOddsRecord(record)) return oddsDeltaFrame(prev as FixtureOdds | undefined, record, json)
  if (isStandingsRecord(record)) return standingsFrameJson(json)
  const changes = deltaChanges(prev as LiveFixture | undefined, record)
  return changes === undefined ? changeFrameJson(json) : deltaFrameJson(record, changes)
}

/**
 * An odds delta: odds changes already carry every value they set, so the frame is the record without its
 * image, when the client holds the image at the version before.
 */
function oddsDeltaFrame (prev: FixtureOdds | undefined, record: OddsRecord, json: string): string {
  if (prev === undefined || prev.fixture_id !== record.fixture_id || prev.version !== record.odds.version - 1) return oddsFrameJson(json)
  return oddsDeltaJson(record)
}

/**
 * The `delta` frame of odds changes that apply to the image at `fromVersion`: `version - 1` but for a frame
 * that conflates several change sets, which says `from_version`.
 */
export function oddsDeltaJson (record: OddsRecord, fromVersion = record.odds.version - 1): string {
  const frame: DeltaOddsFrame = {
    type: 'odds',
    cursor: record.cursor,
    fixture_id: record.fixture_id,
    league_id: record.league_id,
    version: record.odds.version,
    ...(fromVersion !== record.odds.version - 1 ? { from_version: fromVersion } : {}),
    at: record.at,
    changes: record.changes
  }
  return JSON.stringify(frame)
}

/**
 * The frames' JSON, in log order, from the JSON the store returned with the records (ReadSinceResult.json)
 * rather than serialized again. In `delta` format (never with kinds, see DELTA_WITH_KINDS) a fixture whose
 * previous version `versions` does not hold gets a full frame; `versions` is updated, so a consumer that
 * reads page after page may pass the same one.
 */
export function pageFrames (
  page: { records: readonly LogRecord[], json?: ReadonlyArray<string | undefined> }, key: ClientKey, filter: LiveFilter | undefined,
  take: Take, format: Format, versions: LastVersions = new LastVersions()
): string[] {
  const json = page.json?.length === page.records.length ? page.json : undefined
  const matches = recordMatcher(filter)
  const data: string[] = []
  page.records.forEach((record, i) => {
    // A fixture id of a league outside the key's scope matches in the store; the key must not see it.
    if (!leagueAllowed(key, record.league_id) || !matches(record)) return
    // Odds records go only to consumers that take odds (and a delta consumer takes them whole); a league's
    // table only to those that take standings.
    if (isOddsRecord(record) && take.odds === undefined) return
    if (isStandingsRecord(record) && take.standings !== true) return
    const recordJson = json?.[i] ?? JSON.stringify(record)
    if (format === 'delta') {
      data.push(deltaFrame(versions.swap(record), record, recordJson))
      return
    }
    const view = takeView(record, take)
    if (view === undefined) return
    data.push(fullFrameJson(view, view === record ? recordJson : JSON.stringify(view)))
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
  private readonly odds = new Map<number, FixtureOdds>()

  constructor (private readonly max = 20_000) {}

  /** Remembers the record's fixture (or odds image); returns the one it replaces. */
  swap (record: ChangeRecord): LiveFixture | undefined
  swap (record: LogRecord): LiveFixture | FixtureOdds | undefined
  swap (record: LogRecord): LiveFixture | FixtureOdds | undefined {
    if (isOddsRecord(record)) return remember(this.odds, record.fixture_id, record.odds, this.max)
    // A league's table goes whole: no base to keep.
    if (isStandingsRecord(record)) return undefined
    const removed = record.changes.some((c) => c.kind === 'fixture_removed')
    // A fixture that left the live feed: its odds image is no base any more either.
    if (removed) this.odds.delete(record.fixture_id)
    return remember(this.fixtures, record.fixture_id, removed ? undefined : record.fixture, this.max)
  }

  /** A new log: versions of the old one are no base for anything. */
  clear (): void {
    this.fixtures.clear()
    this.odds.clear()
  }

  get size (): number {
    return this.fixtures.size
  }
}

/** Puts `value` (or nothing) in place of the map's entry for `id`, oldest entries out past `max`; returns the entry replaced. */
function remember<T> (map: Map<number, T>, id: number, value: T | undefined, max: number): T | undefined {
  const prev = map.get(id)
  map.delete(id)
  if (value === undefined) return prev
  map.set(id, value)
  if (map.size > max) {
    const oldest = map.keys().next()
    if (oldest.done !== true) map.delete(oldest.value)
  }
  return prev
}
