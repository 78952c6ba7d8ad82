/**
 * The days of the embedded provider read into a browser test's hand-driven store (no poller), as the
 * poller's read of the days does it (src/poller/days.ts): the same `fixtures/between` read of the days
 * around today with the live includes, through the gateway's own upstream client, each fixture stored out
 * of the live set (`fixture_scheduled`), so the gateway's day model (`/v1/fixtures?date=`, a subscription's
 * `dates`) holds the provider's results and kick-offs beside the test's own live matches.
 *
 * The fixtures the provider has in play at that moment are left out: with no poller nothing would move them
 * on, and a test's live set is its own matches. The includes are those a row shows (as the scoreboard's
 * old reads of the passthrough had them) unless asked: the poller's also take statistics, line-ups and
 * formations, four times the bytes for nothing the board draws (day.test.ts runs the poller itself).
 */
import { LIVE_STATE_IDS, STATE_BY_CODE } from '../../../packages/upstream-contract/src/states.ts'
import type { Gateway } from '../../../src/gateway.ts'
import { daysRequest } from '../../../src/poller/days.ts'
import { ingestFixture } from '../../../src/poller/ingest.ts'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import type { LiveFixture } from '../../../src/wire-model/model.ts'

/** What a row shows of a fixture: its teams, score, state and events. */
export const ROW_INCLUDES = 'participants;scores;events;periods;state'

/**
 * Stores the provider's fixtures of the days around today (UTC: `back` days before today to `ahead` after,
 * 3 and 3 as the poller's), of these leagues only if given; resolves to those stored, by kick-off.
 */
export async function seedDays (gw: Gateway, opts: { back?: number, ahead?: number, leagues?: number[], include?: string } = {}): Promise<LiveFixture[]> {
  const query: Record<string, string> = { include: opts.include ?? ROW_INCLUDES }
  if (opts.leagues !== undefined) query.filters = `fixtureLeagues:${opts.leagues.join(',')}`
  const request = daysRequest(Date.now(), { back: opts.back ?? 3, ahead: opts.ahead ?? 3 }, query)
  const at = new Date().toISOString()
  const stored: LiveFixture[] = []
  for await (const page of gw.upstream.paginate(request.path, request.query, { retries: 0 })) {
    for (const fixture of parseFixtures(page.envelope)) {
      if (LIVE_STATE_IDS.has(fixture.state_id)) continue
      const result = await ingestFixture(gw.store, fixture, at, { live: 'outside' })
      if (result !== undefined) stored.push(result.record.fixture)
    }
  }
  return stored.sort((a, b) => (a.starting_at ?? '').localeCompare(b.starting_at ?? '') || a.id - b.id)
}

/**
 * A stored fixture of a day kicks off: it enters the live set in its first half, minute 1, with the changes
 * the differ would have found, its kick-off and teams as they were.
 */
export async function kickOff (gw: Gateway, id: number): Promise<LiveFixture> {
  const entry = await gw.store.getEntry(id)
  const def = STATE_BY_CODE.get('INPLAY_1ST_HALF')
  if (entry === undefined || def === undefined) throw new Error(`fixture ${id} is not stored`)
  const prev = entry.fixture
  const state = { id: def.id, code: def.state, name: def.name, phase: def.phase }
  const at = new Date().toISOString()
  const result = await gw.store.apply({
    fixture: { ...prev, state, minute: 1, period: '1st-half', updated_at: at },
    changes: [
      { kind: 'fixture_added' },
      { kind: 'state_changed', state, previous: prev.state },
      { kind: 'period_changed', period: '1st-half', previous: prev.period },
      { kind: 'clock', minute: 1, previous: prev.minute }
    ],
    expectedVersion: prev.version,
    live: true,
    at
  })
  if (!result.ok) throw new Error(`fixture ${id}: not applied: ${JSON.stringify(result)}`)
  return result.record.fixture
}

/** The fixtures of a day as the gateway's day model answers them (`GET /v1/fixtures?date=`), in a time zone. */
export async function dayOf (url: string, key: string, date: string, tz: string): Promise<LiveFixture[]> {
  const res = await fetch(`${url}/v1/fixtures?date=${date}&tz=${encodeURIComponent(tz)}&api_token=${encodeURIComponent(key)}`)
  if (!res.ok) throw new Error(`GET /v1/fixtures?date=${date}: ${res.status} ${await res.text()}`)
  return (await res.json() as { data: LiveFixture[] }).data
}
