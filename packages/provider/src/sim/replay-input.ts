/**
 * What `--replay` accepts, told apart by shape: a single fixture response (bare or enveloped, as in
 * test/fixtures/upstream/recorded), a livescores list (an envelope whose `data` is a list, or a bare list), or a
 * recording (`touchline serve` with TOUCHLINE_RECORD_DIR: lines `{ at, path, status, body }`). Single fixtures
 * and the fixtures of a list are re-scripted as live matches (replay.ts); a recording's responses become
 * timed observations of each fixture, played back as they were (replay-playback.ts). A recording's in-play
 * odds, from `/football/odds/inplay...` answers or the `inplayOdds` include of its fixtures, are kept as odds
 * observations (odds/recorded.ts serves them).
 */
import { z } from 'zod'

export type FixtureRecord = Record<string, unknown> & { id: number }

/** One fixture as a recorded response showed it. */
export interface Observation {
  /** When the response was received, epoch ms of the recording. */
  atMs: number
  fixture: FixtureRecord
  /** Seen in a livescores response (the feed), not only fetched by id. */
  inFeed: boolean
}

/** An odd row as recorded: any fields, an id and the fixture it prices. */
export type OddRecord = Record<string, unknown> & { id: number, fixture_id: number }

/** In-play odds rows as one recorded response showed them. */
export interface OddsObservation {
  atMs: number
  rows: OddRecord[]
}

export interface ReplayInput {
  /** Fixture payloads to re-script, each played as a live match ending in its recorded state. */
  fixtures: unknown[]
  observations: Observation[]
  /** When the recording received the whole feed (`/football/livescores`), epoch ms: a fixture absent from it had left. */
  feedLists: number[]
  odds: OddsObservation[]
}

const RecordedLine = z.object({
  at: z.iso.datetime({ offset: true }),
  path: z.string(),
  status: z.number().int(),
  body: z.unknown()
})

const LIVESCORES = /^\/?football\/livescores(?:\/(?:latest|inplay))?$/
const WHOLE_FEED = /^\/?football\/livescores$/
const BY_ID = /^\/?football\/fixtures\/(?:multi\/)?[\d,]+$/
const INPLAY_ODDS = /^\/?football\/odds\/inplay(?:\/[\w/]*)?$/

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
const isLine = (value: unknown): boolean => isObject(value) && 'at' in value && 'path' in value && 'body' in value
const isFixture = (value: unknown): value is FixtureRecord => isObject(value) && typeof value.id === 'number'

/** The fixture records of a response body: its `data`, one or a list. */
function fixturesOf (body: unknown): FixtureRecord[] {
  const data = isObject(body) ? body.data : undefined
  return (Array.isArray(data) ? data : [data]).filter(isFixture)
}

const isOdd = (value: unknown): value is OddRecord => isObject(value) && typeof value.id === 'number' && typeof value.fixture_id === 'number'
const oddsOf = (value: unknown): OddRecord[] => Array.isArray(value) ? value.filter(isOdd) : []

/** The observations of a recording's lines; lines of other endpoints and failed responses are skipped. */
function recording (lines: readonly unknown[]): ReplayInput {
  const input: ReplayInput = { fixtures: [], observations: [], feedLists: [], odds: [] }
  lines.forEach((raw, i) => {
    const parsed = RecordedLine.safeParse(raw)
    if (!parsed.success) throw new Error(`invalid recording line ${i + 1}:\n${z.prettifyError(parsed.error)}`)
    const { at, path, status, body } = parsed.data
    const endpoint = path.split('?')[0] ?? ''
    const inFeed = LIVESCORES.test(endpoint)
    const atMs = Date.parse(at)
    if (status >= 200 && status <= 299 && INPLAY_ODDS.test(endpoint)) {
      const rows = oddsOf(isObject(body) ? body.data : undefined)
      if (rows.length > 0) input.odds.push({ atMs, rows })
      return
    }
    if (status < 200 || status > 299 || (!inFeed && !BY_ID.test(endpoint))) return
    // Only the unfiltered feed tells who left it.
    if (WHOLE_FEED.test(endpoint) && !/[?&]filters=/.test(path)) input.feedLists.push(atMs)
    for (const fixture of fixturesOf(body)) {
      input.observations.push({ atMs, fixture, inFeed })
      // The include's key comes back lower-cased (docs/upstream.md, "Includes").
      if (Array.isArray(fixture.inplayodds)) input.odds.push({ atMs, rows: oddsOf(fixture.inplayodds) })
    }
  })
  return input
}

/** One `--replay` file's content (a parsed JSON value, or the parsed lines of an NDJSON file) sorted by kind. */
export function replayInput (json: unknown): ReplayInput {
  if (isLine(json)) return recording([json])
  if (Array.isArray(json)) {
    if (json.length > 0 && json.every(isLine)) return recording(json)
    return { fixtures: json, observations: [], feedLists: [], odds: [] }
  }
  if (isObject(json) && Array.isArray(json.data)) return { fixtures: json.data, observations: [], feedLists: [], odds: [] }
  return { fixtures: [json], observations: [], feedLists: [], odds: [] }
}
