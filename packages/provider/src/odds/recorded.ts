/**
 * In-play odds a recording carried (sim/replay-input.ts), played back on the replay's clock: at each instant
 * every row shows its last recorded version, as a fixture shows its last observation. Rows are merged by id
 * across answers (a `latest` answer holds only the rows that changed), and a row's time fields move with the
 * replay as kick-off and period times do.
 */
import type { OddRecord, OddsObservation } from '../sim/replay-input.ts'
import type { Rec } from '../records.ts'
import type { TimedOdd } from './book.ts'

export interface RecordedOdds {
  /** Whether the recording carried in-play odds of the fixture. */
  has: (fixtureId: number) => boolean
  /** The fixture's rows as last recorded before `nowMs` (none before the first), by id. */
  at: (fixtureId: number, nowMs: number) => TimedOdd[]
}

interface Version {
  atMs: number
  row: Rec
}

const BILLING = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/

/** A recorded timestamp moved onto the replay's clock, written as it was written; anything else as it was. */
function retime (value: unknown, realMs: (recordedMs: number) => number): unknown {
  if (typeof value !== 'string') return value
  const billing = BILLING.test(value)
  const ms = Date.parse(billing ? `${value.replace(' ', 'T')}Z` : value)
  if (Number.isNaN(ms)) return value
  const iso = new Date(realMs(ms)).toISOString()
  if (billing) return iso.slice(0, 19).replace('T', ' ')
  return value.endsWith('.000000Z') ? `${iso.slice(0, 19)}.000000Z` : iso
}

function lastAtOrBefore (versions: readonly Version[], nowMs: number): Version | undefined {
  let lo = 0
  let hi = versions.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((versions[mid] as Version).atMs <= nowMs) lo = mid + 1
    else hi = mid
  }
  return versions[lo - 1]
}

/** `realMs` maps recorded epoch ms onto the replay's clock (the playback's own mapping). */
export function createRecordedOdds (observations: readonly OddsObservation[], realMs: (recordedMs: number) => number): RecordedOdds {
  const byFixture = new Map<number, Map<number, Version[]>>()
  const shown = new Map<number, string>()
  for (const o of [...observations].sort((a, b) => a.atMs - b.atMs)) {
    for (const raw of o.rows) {
      const text = JSON.stringify(raw)
      // A row recorded again unchanged is no new version: its update time stays that of the change.
      if (shown.get(raw.id) === text) continue
      shown.set(raw.id, text)
      const rows = byFixture.get(raw.fixture_id) ?? new Map<number, Version[]>()
      byFixture.set(raw.fixture_id, rows)
      const row: OddRecord = { ...raw, created_at: retime(raw.created_at, realMs), latest_bookmaker_update: retime(raw.latest_bookmaker_update, realMs) }
      if (!('created_at' in raw)) delete row.created_at
      if (!('latest_bookmaker_update' in raw)) delete row.latest_bookmaker_update
      const versions = rows.get(raw.id) ?? []
      versions.push({ atMs: realMs(o.atMs), row })
      rows.set(raw.id, versions)
    }
  }
  return {
    has: (id) => byFixture.has(id),
    at (id, nowMs) {
      const out: TimedOdd[] = []
      for (const versions of byFixture.get(id)?.values() ?? []) {
        const v = lastAtOrBefore(versions, nowMs)
        if (v !== undefined) out.push({ row: v.row, updatedMs: v.atMs })
      }
      return out.sort((a, b) => a.row.id - b.row.id)
    }
  }
}
