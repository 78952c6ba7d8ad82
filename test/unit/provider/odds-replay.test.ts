/**
 * Odds of a recorded match day played back (`--replay`): priced from the recorded views when the recording
 * carried no odds, and the recorded rows themselves, on the replay's clock, when it did (in-play odds
 * answers, or the `inplayOdds` include of its fixtures).
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createProvider } from '../../../packages/provider/src/index.ts'
import { REPLAY_GAP_S } from '../../../packages/provider/src/replays.ts'
import { replayInput } from '../../../packages/provider/src/sim/replay-input.ts'

type Rec = Record<string, any>
const RECORDED = new URL('../../fixtures/upstream/recorded/fixture-19135043-manutd-villa.json', import.meta.url)
const json = JSON.parse(readFileSync(RECORDED, 'utf8')) as Rec
/** Manchester United 2-0 Aston Villa: Villa's red card at 45', United's goal at 76' and penalty at 87'. */
const FINAL = (json.data ?? json) as Rec
const ID = FINAL.id as number
const KICKOFF_MS = (FINAL.starting_at_timestamp as number) * 1000
const SPEED = 10
const MIN = 60_000
const [RED, GOAL, PENALTY] = [20, 14, 16].map((type) => (FINAL.events as Rec[]).find((e) => e.type_id === type))

const period = (type: number, minutes: number, ended: boolean): Rec => {
  const first = type === 1
  const started = KICKOFF_MS / 1000 + (first ? 0 : 60 * 60)
  const end = ended ? KICKOFF_MS / 1000 + (first ? 47 * 60 : 113 * 60) : null
  const description = first ? '1st-half' : '2nd-half'
  return { id: type, fixture_id: ID, type_id: type, started, ended: end, counts_from: first ? 0 : 45, ticking: !ended, sort_order: type, description, time_added: null, period_length: 45, minutes, seconds: 0, has_timer: true }
}
/** The match as the recorder saw it, minute by minute of recorded time after kick-off. */
const VIEWS: Array<[number, Rec]> = [
  [-15, { state_id: 1, events: [], periods: [] }],
  [10, { state_id: 2, events: [], periods: [period(1, 10, false)] }],
  [30, { state_id: 2, events: [], periods: [period(1, 30, false)] }],
  [46, { state_id: 2, events: [RED], periods: [period(1, 45, false)] }],
  [48, { state_id: 3, events: [RED], periods: [period(1, 47, true)] }],
  [60, { state_id: 22, events: [RED], periods: [period(1, 47, true), period(2, 45, false)] }],
  [91, { state_id: 22, events: [RED], periods: [period(1, 47, true), period(2, 76, false)] }],
  [92, { state_id: 22, events: [RED, GOAL], periods: [period(1, 47, true), period(2, 77, false)] }],
  [103, { state_id: 22, events: [RED, GOAL, PENALTY], periods: [period(1, 47, true), period(2, 88, false)] }],
  [113, { ...FINAL, periods: [period(1, 47, true), period(2, 93, true)] }]
]
const line = (minute: number, path: string, data: unknown): Rec => ({ at: new Date(KICKOFF_MS + minute * MIN).toISOString(), path, status: 200, body: { data } })
const fixtureLines = (): Rec[] => VIEWS.map(([minute, view]) => line(minute, '/football/livescores/latest', [{ ...FINAL, result_info: null, scores: [], ...view }]))

let app: FastifyInstance | undefined
afterEach(async () => { await app?.close() })

function replay (lines: Rec[]): { get: (path: string) => Promise<Rec>, at: (recordedMinute: number) => void, odds: () => Rec[] } {
  const start = Date.parse('2026-11-24T15:00:00.000Z')
  let now = start
  const provider = createProvider({ now: () => now, simSpeed: SPEED, replay: [{ file: 'day.ndjson', json: lines }] })
  app = provider.app
  const first = Math.min(...lines.map((l) => Date.parse(l.at)))
  const get = async (path: string): Promise<Rec> => (await provider.app.inject({ url: `/v3/football/${path}${path.includes('?') ? '&' : '?'}api_token=demo-enterprise` })).json()
  // Recorded time plays from REPLAY_GAP_S after the start, SPEED recorded seconds per real second.
  const at = (minute: number): void => { now = start + REPLAY_GAP_S * 1000 + (KICKOFF_MS + minute * MIN - first) / SPEED }
  const odds = (): Rec[] => provider.world.inplayOdds(provider.world.get('fixture', ID) as Rec & { id: number }, now).map((o) => o.row)
  return { get, at, odds }
}

const market = (rows: Rec[], id: number, bookmaker = 2): Rec[] => rows.filter((o) => o.market_id === id && o.bookmaker_id === bookmaker)

describe('odds of a played-back recording', () => {
  it('without recorded odds: priced from the recorded views, suspended at the goal, settled by the recorded result', async () => {
    const { get, at } = replay(fixtureLines())
    at(5)
    expect((await get(`odds/inplay/fixtures/${ID}`)).data).toEqual([])
    at(31)
    const early = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(early.length).toBe(26)
    expect(early.every((o) => !o.suspended && !o.stopped)).toBe(true)
    at(47)
    // Villa's red card: United shorten.
    const afterRed = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(Number(market(afterRed, 1)[0]?.value)).toBeLessThan(Number(market(early, 1)[0]?.value))
    at(92.5)
    expect(((await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]).every((o) => o.suspended)).toBe(true)
    at(95)
    const afterGoal = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(afterGoal.filter((o) => !o.stopped).every((o) => !o.suspended)).toBe(true)
    expect(Number(market(afterGoal, 1)[0]?.value)).toBeLessThan(Number(market(afterRed, 1)[0]?.value))
    // The penalty was recorded when scored: suspended from that view on.
    at(103.5)
    expect(((await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]).every((o) => o.suspended || o.stopped)).toBe(true)
    at(114)
    const final = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(final.every((o) => o.stopped)).toBe(true)
    const winners = (id: number): string[] => market(final, id).filter((o) => o.winning).map((o) => o.label)
    expect([winners(1), winners(80), winners(14), winners(57)]).toEqual([['1'], ['Under'], ['No'], ['1', '1', 'No Goal']])
  })

  it('without recorded odds: every change of a row moves its last update, never backwards, the recorded clock corrections included', () => {
    const { at, odds } = replay(fixtureLines())
    const content = (r: Rec): string => JSON.stringify([r.value, r.suspended, r.stopped, r.winning])
    const before = new Map<number, Rec>()
    let changes = 0
    for (let minute = 0; minute < 120; minute += 1 / 3) {
      at(minute)
      for (const r of odds()) {
        const old = before.get(r.id)
        if (old !== undefined) expect(r.latest_bookmaker_update >= old.latest_bookmaker_update).toBe(true)
        if (old !== undefined && content(old) !== content(r)) {
          changes++
          expect(r.latest_bookmaker_update > old.latest_bookmaker_update, `row ${r.id as number} at ${minute}`).toBe(true)
        }
        before.set(r.id, r)
      }
    }
    expect(changes).toBeGreaterThan(100)
  })

  it('with recorded odds: the recorded rows, merged by id, as last recorded, their times on the replay clock', async () => {
    const row = (id: number, value: string, minute: number): Rec => {
      const update = new Date(KICKOFF_MS + minute * MIN).toISOString().slice(0, 19).replace('T', ' ')
      return { id, fixture_id: ID, market_id: 1, bookmaker_id: 2, label: id === 1 ? '1' : 'X', value, winning: false, suspended: false, stopped: false, latest_bookmaker_update: update }
    }
    const lines = [
      ...fixtureLines(),
      line(20, '/football/odds/inplay/latest?include=market', [row(1, '1.50', 20), row(2, '3.40', 20)]),
      line(30, '/football/odds/inplay/latest', [row(1, '1.40', 30)]),
      line(40, `/football/fixtures/${ID}?include=inplayOdds`, { ...FINAL, state_id: 2, result_info: null, scores: [], events: [], periods: [period(1, 40, false)], inplayodds: [row(3, '5.00', 40)] })
    ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
    expect(replayInput(lines).odds.map((o) => o.rows.map((r) => r.id))).toEqual([[1, 2], [1], [3]])
    const { get, at } = replay(lines)
    at(15)
    expect((await get(`odds/inplay/fixtures/${ID}`)).data).toEqual([])
    at(25)
    const first = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(first.map((o) => [o.id, o.value])).toEqual([[1, '1.50'], [2, '3.40']])
    at(35)
    expect(((await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]).map((o) => [o.id, o.value])).toEqual([[1, '1.40'], [2, '3.40']])
    at(30.5)
    // Five recorded minutes after the second answer is 3 real seconds at speed 10: row 1 is in latest, row 2 (10 minutes older) is not.
    expect(((await get('odds/inplay/latest')).data as Rec[]).filter((o) => o.fixture_id === ID).map((o) => o.id)).toEqual([1])
    at(41)
    const all = (await get(`odds/inplay/fixtures/${ID}`)).data as Rec[]
    expect(all.map((o) => o.id)).toEqual([1, 2, 3])
    const update = all.find((o) => o.id === 3)?.latest_bookmaker_update as string
    const replayed = Date.parse(`${update.replace(' ', 'T')}Z`)
    at(40)
    expect(Math.abs(replayed - Date.parse('2026-11-24T15:00:00.000Z') - (REPLAY_GAP_S * 1000 + (KICKOFF_MS + 40 * MIN - (KICKOFF_MS - 15 * MIN)) / SPEED))).toBeLessThan(1000)
  })
})
