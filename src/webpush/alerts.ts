/**
 * What a change record is worth to a fan's phone (docs/push.md, "What a fan sees"): the alerts of one log
 * record, each with an id derived from the change alone (fixture, event id, kind), so that reading the same
 * record again (a restart, a new shard holder, a replay) gives the same ids and a device is sent each once.
 *
 * - goal: each goal event a `score_changed` of the current score carries, or a goal event listed later
 *   (`event_added`); a score that rose without its event gets one alert by the score (the scorer, once
 *   listed, comes as its own alert under the same Topic, which replaces it);
 * - goal_disallowed: a goal event removed (VAR), under the goal's Topic;
 * - red_card: a red or second-yellow card added;
 * - kick_off, half_time: the state entering the first half, half time;
 * - full_time: once the state is final. `FT` is not final while the fixture is in the live feed (a cup tie
 *   goes on to extra time), so it waits for the fixture to leave the live set; AET, after penalties, awarded
 *   and walk-over are final at once.
 */
import { isGoalType, minuteText, scoringSide } from '@touchline/core'
import type { ChangeRecord, LiveEvent, LiveFixture } from '../wire-model/model.ts'
import { MAX_PAYLOAD_BYTES, type AlertKind, type PushKind, type PushPayload } from '../wire-model/webpush.ts'

export interface Alert {
  id: string
  kind: AlertKind
  /** The subscription kind that brings it (`goal` for a disallowed goal). */
  wants: PushKind
  fixtureId: number
  leagueId: number
  teams: [number, number]
  title: string
  body: string
  /** The Topic header and the notification tag: per fixture and kind family. */
  topic: string
  /** Seconds a push service keeps it for a device that is offline. */
  ttl: number
  urgency: 'high' | 'normal'
  /** Higher is kept longer under the hourly cap (4 goals ... 0 half time). */
  importance: number
}

const REDS = new Set(['REDCARD', 'YELLOWREDCARD'])
/** States that end a match for good, as soon as they are seen. */
const FINAL_AT_ONCE = new Set(['AET', 'FT_PEN', 'AWARDED', 'WO'])

interface KindRules { wants: PushKind, family: string, ttl: number, urgency: 'high' | 'normal', importance: number }
const RULES: Record<AlertKind, KindRules> = {
  goal: { wants: 'goal', family: 'goal', ttl: 300, urgency: 'high', importance: 4 },
  goal_disallowed: { wants: 'goal', family: 'goal', ttl: 300, urgency: 'high', importance: 4 },
  red_card: { wants: 'red_card', family: 'card', ttl: 300, urgency: 'high', importance: 3 },
  full_time: { wants: 'full_time', family: 'ft', ttl: 3600, urgency: 'normal', importance: 2 },
  kick_off: { wants: 'kick_off', family: 'ko', ttl: 300, urgency: 'normal', importance: 1 },
  half_time: { wants: 'half_time', family: 'ht', ttl: 600, urgency: 'normal', importance: 0 }
}

/** The Topic of a fixture's kind family: at most 32 URL-safe base64 characters (a 16-digit id fits). */
export const topicOf = (fixtureId: number, kind: AlertKind): string => `f${fixtureId}-${RULES[kind].family}`

const score = (f: LiveFixture, home = f.home.score, away = f.away.score): string => `${f.home.name} ${home ?? '?'}-${away ?? '?'} ${f.away.name}`
/** The team a goal counts for (an own goal: the other side's), by name. */
const scoredFor = (f: LiveFixture, e: LiveEvent): string | undefined => { const side = scoringSide(e); return side === null ? undefined : f[side].name }

/** The score after a goal: the event's own `result` ("2-1") when it has one, else the fixture's. */
function scoreAfter (f: LiveFixture, e: LiveEvent): string {
  const m = /^(\d+)-(\d+)$/.exec(e.result ?? '')
  return m === null ? score(f) : score(f, Number(m[1]), Number(m[2]))
}

function goalLine (f: LiveFixture, e: LiveEvent): string {
  // An own goal's event is the conceding side's (its player's): the goal is the other side's.
  const who = e.player?.name ?? `Goal for ${scoredFor(f, e) ?? 'unknown'}`
  const what = e.type === 'PENALTY' ? ' (pen)' : e.type === 'OWNGOAL' ? ' (o.g.)' : ''
  return `${minuteText(e)} ${who}${what}`.trim()
}

/** "Furuhashi 23', 67'; Tavernier 55' (pen)": the goals so far, for half and full time. */
function scorers (f: LiveFixture): string {
  const goals = f.events.filter((e) => isGoalType(e.type))
  if (goals.length === 0) return 'No goals'
  // A goal with no scorer named is its team's: an own goal the other side's.
  return goals.map((e) => `${e.player?.name ?? scoredFor(f, e) ?? '?'} ${minuteText(e)}${e.type === 'PENALTY' ? ' (pen)' : e.type === 'OWNGOAL' ? ' (o.g.)' : ''}`.trim()).join(', ')
}

function make (f: LiveFixture, kind: AlertKind, idPart: string, title: string, body: string): Alert {
  const r = RULES[kind]
  return {
    id: `f${f.id}:${kind}${idPart === '' ? '' : `:${idPart}`}`,
    kind,
    wants: r.wants,
    fixtureId: f.id,
    leagueId: f.league_id,
    teams: [f.home.id, f.away.id],
    title,
    body,
    topic: topicOf(f.id, kind),
    ttl: r.ttl,
    urgency: r.urgency,
    importance: r.importance
  }
}

function goalAlerts (record: ChangeRecord): Alert[] {
  const f = record.fixture
  const events = new Map<number, LiveEvent>()
  let rose: { home: number | null, away: number | null } | undefined
  for (const c of record.changes) {
    if (c.kind === 'score_changed' && c.score_type === undefined) {
      for (const e of c.goals ?? []) events.set(e.id, e)
      if ((c.home ?? 0) > (c.previous.home ?? 0) || (c.away ?? 0) > (c.previous.away ?? 0)) rose = { home: c.home, away: c.away }
    }
    if (c.kind === 'event_added' && isGoalType(c.event.type)) events.set(c.event.id, c.event)
  }
  const out = [...events.values()].map((e) => make(f, 'goal', `e${e.id}`, `GOAL! ${scoreAfter(f, e)}`, goalLine(f, e)))
  if (out.length === 0 && rose !== undefined) {
    out.push(make(f, 'goal', `s${rose.home ?? 0}-${rose.away ?? 0}`, `GOAL! ${score(f, rose.home, rose.away)}`, f.minute === null ? '' : `${f.minute}'`))
  }
  return out
}

function eventAlerts (record: ChangeRecord): Alert[] {
  const f = record.fixture
  const out: Alert[] = []
  for (const c of record.changes) {
    if (c.kind === 'event_removed' && isGoalType(c.event.type)) {
      const who = c.event.player?.name
      out.push(make(f, 'goal_disallowed', `e${c.event.id}`, `Goal disallowed: ${score(f)}`, `${minuteText(c.event)} ${who === undefined || who === null ? 'The goal' : `${who}'s goal`} ruled out`.trim()))
    }
    if (c.kind === 'event_added' && REDS.has(c.event.type)) {
      const team = c.event.side === null ? undefined : f[c.event.side].name
      out.push(make(f, 'red_card', `e${c.event.id}`, `Red card: ${score(f)}`, `${minuteText(c.event)} ${c.event.player?.name ?? 'A player'}${team === undefined ? '' : ` (${team})`}`.trim()))
    }
  }
  return out
}

function stateAlerts (record: ChangeRecord): Alert[] {
  const f = record.fixture
  const out: Alert[] = []
  for (const c of record.changes) {
    if (c.kind !== 'state_changed') continue
    if (c.state.code === 'INPLAY_1ST_HALF' && c.previous.phase !== 'live' && c.previous.phase !== 'break') out.push(make(f, 'kick_off', '', `Kick-off: ${score(f)}`, f.name ?? ''))
    if (c.state.code === 'HT') out.push(make(f, 'half_time', '', `Half time: ${score(f)}`, scorers(f)))
  }
  const removed = record.changes.some((c) => c.kind === 'fixture_removed')
  const finalNow = record.changes.some((c) => c.kind === 'state_changed' && FINAL_AT_ONCE.has(c.state.code))
  if (f.state.phase === 'finished' && (removed || finalNow)) out.push(make(f, 'full_time', '', `Full time: ${score(f)}`, scorers(f)))
  return out
}

/** The alerts of one record, goals first. */
export function alertsOf (record: ChangeRecord): Alert[] {
  return [...goalAlerts(record), ...eventAlerts(record), ...stateAlerts(record)]
}

/** The JSON a device receives, cut to MAX_PAYLOAD_BYTES (the body shortened first). */
export function payloadOf (alert: Alert, sentAt: string): string {
  const payload: PushPayload = {
    id: alert.id,
    kind: alert.kind,
    title: alert.title,
    body: alert.body,
    fixture_id: alert.fixtureId,
    url: `/?fixture=${alert.fixtureId}`,
    tag: alert.topic,
    sent_at: sentAt
  }
  let json = JSON.stringify(payload)
  while (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES && payload.body.length > 0) {
    payload.body = `${payload.body.slice(0, Math.max(0, payload.body.length - (Buffer.byteLength(json) - MAX_PAYLOAD_BYTES) - 1))}…`
    if (payload.body === '…') payload.body = ''
    json = JSON.stringify(payload)
  }
  while (Buffer.byteLength(json) > MAX_PAYLOAD_BYTES) {
    payload.title = `${payload.title.slice(0, payload.title.length - 16)}…`
    json = JSON.stringify(payload)
  }
  return json
}

/** How many alerts of this importance a device may have had in the last hour before this one is dropped. */
export function ceilingOf (importance: number, hourlyCap: number): number {
  const share = [0.5, 0.6, 0.8, 0.9, 1][importance] ?? 1
  return Math.max(1, Math.floor(hourlyCap * share))
}
