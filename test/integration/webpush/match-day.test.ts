/**
 * A simulated match day through the real pipeline (the embedded provider over HTTP, the poller, the
 * gateway's store; test/helpers/match-day.ts) with push senders reading the log: every goal, goal
 * disallowed, red card and final whistle of the day reaches each follower exactly once, with the right
 * text, Topic, TTL and Urgency. What was expected is read from the log afterwards: every goal and red card
 * event any fixture ever showed, the goals gone from the fixture's last state, and the fixtures that ended
 * and left the live set.
 */
import { expect, it } from 'vitest'
import type { ChangeRecord, LiveEvent } from '../../../src/wire-model/model.ts'
import { wholeLog } from '../../helpers/log.ts'
import { startProvider } from '../../../packages/provider/src/index.ts'
import { runMatchDay } from '../../helpers/match-day.ts'
import { startPushService, type PushMessage } from '../../helpers/push-service.ts'
import { useRedis } from '../../helpers/redis.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, startPushGateway } from './harness.ts'

const redis = useRedis()
const SPEED = 120
const GOAL_TYPES = new Set(['GOAL', 'PENALTY', 'OWNGOAL'])
const RED_TYPES = new Set(['REDCARD', 'YELLOWREDCARD'])
/** States that are final the moment they are reached (docs/push.md): no wait for the fixture to leave the live set. */
const FINAL_AT_ONCE = new Set(['AET', 'FT_PEN', 'AWARDED', 'WO'])

interface Expected { goals: Map<string, { fixture: ChangeRecord['fixture'], event: LiveEvent }>, reds: Set<string>, disallowed: Set<string>, fullTime: Set<string> }

/** The dataset's leagues, and six teams in play as the day starts (the provider is seeded: the same as the day's). */
async function whatIsOn (): Promise<{ leagues: number[], teams: number[] }> {
  const provider = await startProvider({ port: 0, simSpeed: SPEED, liveTarget: 6 })
  try {
    const res = await fetch(`${provider.baseUrl}/football/livescores/inplay?api_token=demo-enterprise&include=participants`)
    const body = await res.json() as { data?: Array<{ participants?: Array<{ id: number }> }> }
    const teams = [...new Set((body.data ?? []).flatMap((f) => (f.participants ?? []).map((p) => p.id)))].slice(0, 6)
    return { leagues: provider.world.all('league').map((l) => l.id as number), teams }
  } finally {
    await provider.close()
  }
}

/**
 * What the day should have sent, from the log alone: goals and red cards of every record's fixture, but
 * those it already had when the gateway first saw it (old news: a fixture found mid-match).
 */
function expectedFrom (records: ChangeRecord[]): Expected {
  const out: Expected = { goals: new Map(), reds: new Set(), disallowed: new Set(), fullTime: new Set() }
  const last = new Map<number, ChangeRecord['fixture']>()
  const seenGoals = new Map<number, Set<number>>()
  const before = new Set<number>()
  const ended = new Set<number>()
  for (const r of records) {
    const final = r.changes.some((c) => c.kind === 'fixture_removed' || (c.kind === 'state_changed' && FINAL_AT_ONCE.has(c.state.code)))
    if (final && r.fixture.state.phase === 'finished') ended.add(r.fixture_id)
    if (!last.has(r.fixture_id) && r.changes.some((c) => c.kind === 'fixture_added')) {
      // What it showed when it joined the live set, but for the events the same record adds: a fixture of a
      // day (held before, outside the live set) may join with the changes since its last read.
      const added = new Set(r.changes.flatMap((c) => c.kind === 'event_added' ? [c.event.id] : []))
      for (const e of r.fixture.events) if (!added.has(e.id)) before.add(e.id)
    }
    last.set(r.fixture_id, r.fixture)
    for (const e of r.fixture.events.filter((x) => !before.has(x.id))) {
      if (GOAL_TYPES.has(e.type)) {
        out.goals.set(`f${r.fixture_id}:goal:e${e.id}`, { fixture: r.fixture, event: e })
        seenGoals.set(r.fixture_id, (seenGoals.get(r.fixture_id) ?? new Set()).add(e.id))
      }
      if (RED_TYPES.has(e.type)) out.reds.add(`f${r.fixture_id}:red_card:e${e.id}`)
    }
  }
  for (const [id, f] of last) {
    const now = new Set(f.events.map((e) => e.id))
    for (const goal of seenGoals.get(id) ?? []) if (!now.has(goal)) out.disallowed.add(`f${id}:goal_disallowed:e${goal}`)
  }
  // Final once a record shows it finished leaving the live set, or reaching a state final at once (after extra
  // time, on penalties: such a fixture may still be in the live set when the day stops).
  for (const id of ended) out.fullTime.add(`f${id}:full_time`)
  return out
}

it('a match day sends every goal, goal disallowed, red card and full time to each follower once', async () => {
  const service = await startPushService()
  const gw = await startPushGateway({ TOUCHLINE_REDIS_URL: redis.url, TOUCHLINE_REDIS_PREFIX: redis.prefix, TOUCHLINE_PUSH_HOURLY_CAP: '10000' })
  const { leagues, teams } = await whatIsOn()
  expect(teams.length).toBeGreaterThan(0)
  const everything = service.newDevice()
  const someTeams = service.newDevice()
  expect((await follow(gw, ALL_KEY.key, everything.subscription, { leagues }, { kinds: ['goal', 'red_card', 'full_time'] })).status).toBe(201)
  expect((await follow(gw, ALL_KEY.key, someTeams.subscription, { teams })).status).toBe(201)
  const start = await gw.store.head()

  await runMatchDay(gw.store, { minutes: 5, simSpeed: SPEED })
  const records = (await wholeLog(gw.store, start)).map((r) => JSON.parse(r.json) as ChangeRecord)
  const expected = expectedFrom(records)
  const wanted = [...expected.goals.keys(), ...expected.disallowed, ...expected.reds, ...expected.fullTime].sort()
  expect(expected.goals.size).toBeGreaterThan(5)
  expect(expected.fullTime.size).toBeGreaterThan(0)

  const ids = (device: string): string[] => service.messages.filter((m) => m.device === device).map((m) => m.payload?.id ?? '?')
  await waitFor(() => `alerts to the league follower: ${ids(everything.id).length} of ${wanted.length}`, () => ids(everything.id).length >= wanted.length, 120_000).catch(() => {})
  await new Promise((resolve) => setTimeout(resolve, 1500))
  expect(ids(everything.id).sort()).toEqual(wanted)

  // The team follower: the same alerts of the fixtures its teams played, plus kick-offs and half times, once each.
  const mine = new Set(records.filter((r) => teams.includes(r.fixture.home.id) || teams.includes(r.fixture.away.id)).map((r) => `f${r.fixture_id}:`))
  const teamIds = ids(someTeams.id)
  expect(new Set(teamIds).size).toBe(teamIds.length)
  expect(teamIds.filter((id) => !/:(kick_off|half_time)$/.test(id)).sort()).toEqual(wanted.filter((id) => mine.has(id.slice(0, id.indexOf(':') + 1))))

  for (const m of service.messages) checkMessage(m, expected)
}, 300_000)

function checkMessage (m: PushMessage, expected: Expected): void {
  expect(m.vapidProblem).toBeUndefined()
  expect(m.decryptProblem).toBeUndefined()
  const p = m.payload
  if (p === undefined) throw new Error('no payload')
  expect(m.topic).toBe(p.tag)
  const goal = expected.goals.get(p.id)
  if (p.kind === 'goal' && goal !== undefined) {
    const { fixture: f, event: e } = goal
    expect(p.title).toMatch(new RegExp(`^GOAL! ${escape(f.home.name)} \\d+-\\d+ ${escape(f.away.name)}$`))
    expect(p.body).toContain(`${e.minute ?? ''}`)
    if (e.player?.name !== undefined && e.player.name !== null) expect(p.body).toContain(e.player.name)
  }
  const rules: Record<string, [string, number, string]> = {
    goal: ['goal', 300, 'high'], goal_disallowed: ['goal', 300, 'high'], red_card: ['card', 300, 'high'], full_time: ['ft', 3600, 'normal'], kick_off: ['ko', 300, 'normal'], half_time: ['ht', 600, 'normal']
  }
  const [family, ttl, urgency] = rules[p.kind] ?? ['?', 0, '?']
  expect({ topic: m.topic, ttl: m.ttl, urgency: m.urgency }).toEqual({ topic: `f${p.fixture_id}-${family}`, ttl, urgency })
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
