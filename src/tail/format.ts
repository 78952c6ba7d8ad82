/**
 * `touchline tail`'s plain output: one readable line per thing a person cares about in a change record
 * (goals, cards, VAR removals, state changes), e.g.
 *
 *   23' Celtic 1-0 Kilmarnock  goal (K. Furuhashi)
 *   HT Celtic 1-0 Kilmarnock
 *   51' Celtic 1-0 Kilmarnock  goal cancelled by VAR (K. Furuhashi)
 *
 * Clock ticks, period changes and other bookkeeping print nothing. Pure functions, no IO.
 */
import { STATE_BY_ID } from '@touchline/upstream-contract/states'
import { isGoalType, marketKey, minuteText, runningMinute, type MarketRef } from '@touchline/core'
import type { Change, ChangeRecord, FixtureOdds, LiveEvent, LiveFixture, OddsChange, SelectionKey } from '../wire-model/model.ts'

export interface FormatOptions {
  /** ANSI colours (goals green, VAR yellow, red cards red). */
  color?: boolean
}

/** What follows the score line for an added event, or undefined for events not shown (substitutions...). */
const EVENT_WORDS: Record<string, string> = {
  GOAL: 'goal',
  PENALTY: 'goal, penalty',
  OWNGOAL: 'own goal',
  MISSED_PENALTY: 'penalty missed',
  YELLOWCARD: 'yellow card',
  YELLOWREDCARD: 'second yellow, sent off',
  REDCARD: 'red card'
}

/** Words after the score line when a fixture enters a state. HT and FT need none: the clock says it. */
const STATE_WORDS: Record<string, string> = {
  INPLAY_1ST_HALF: 'kick-off',
  INPLAY_2ND_HALF: 'second half',
  INPLAY_ET: 'extra time',
  INPLAY_ET_2ND_HALF: 'extra time, second half',
  INPLAY_PENALTIES: 'penalty shoot-out'
}

const ANSI = { green: '\u001b[32m', yellow: '\u001b[33m', red: '\u001b[31m', bold: '\u001b[1m', reset: '\u001b[0m' }

/** Where each period's regulation time ends, for a fixture without a clock `length`. */
const PERIOD_ENDS: Record<string, number> = { '1st-half': 45, '2nd-half': 90, 'extra-time': 105, 'et-1st-half': 105, 'et-2nd-half': 120 }

/**
 * `23'`, `90+3'`, `HT`, `FT`, `NS`: the running minute at `atMs` (the fixture's clock runs on its own: the
 * gateway sends no tick it shows anyway), written as events are (93 in the second half is 90+3), or the
 * state's short name.
 */
export function clockLabel (f: LiveFixture, atMs = Date.now()): string {
  const minute = runningMinute(f, atMs)
  if (f.state.phase === 'live' && minute !== null) {
    const c = f.clock
    const end = c !== undefined && c !== null && c.length !== null ? c.counts_from + c.length : PERIOD_ENDS[f.period ?? '']
    return end !== undefined && minute > end ? `${end}+${minute - end}'` : `${minute}'`
  }
  return STATE_BY_ID.get(f.state.id)?.short_name ?? clean(f.state.code)
}

/** An event's minute (`90+4'`); `?'` when the feed gave none, so the column stays. */
const minuteOf = (e: LiveEvent): string => minuteText(e) || '?\''

/**
 * A feed-supplied name made safe for a terminal: control characters (ANSI escape sequences included, which
 * could recolour, move the cursor or retitle the window) are removed; nothing else changes.
 */
export function clean (text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[\u0000-\u001f\u007f-\u009f]/g, '')
}

/** `Celtic 1-0 Kilmarnock` */
function scoreLine (f: LiveFixture): string {
  const pens = f.scores.penalty_shootout
  const shootout = pens !== undefined && (pens.home > 0 || pens.away > 0) ? ` (${pens.home}-${pens.away} pens)` : ''
  return `${clean(f.home.name)} ${f.home.score ?? '?'}-${f.away.score ?? '?'} ${clean(f.away.name)}${shootout}`
}

/** The fixture's state as one line, for snapshots: `23' Celtic 1-0 Kilmarnock`. */
export const fixtureLine = (f: LiveFixture): string => `${clockLabel(f)} ${scoreLine(f)}`

function who (e: LiveEvent, f: LiveFixture, withTeam: boolean): string {
  const name = e.player?.name ?? null
  const team = e.side === null ? null : f[e.side].name
  const parts = [name, withTeam ? team : null].filter((p): p is string => p !== null).map(clean).filter((p) => p !== '')
  return parts.length > 0 ? ` (${parts.join(', ')})` : ''
}

function paint (text: string, colour: keyof typeof ANSI | undefined, opts: FormatOptions): string {
  return opts.color === true && colour !== undefined ? `${ANSI[colour]}${text}${ANSI.reset}` : text
}

/** The readable lines of one change record (possibly none). */
export function describe (record: Pick<ChangeRecord, 'changes' | 'fixture'> & { at?: string }, opts: FormatOptions = {}): string[] {
  const f = record.fixture
  // The clock as it read when the change happened.
  const at = record.at === undefined ? Date.now() : Date.parse(record.at)
  const score = scoreLine(f)
  const lines: string[] = []
  const line = (clock: string, words: string, colour?: keyof typeof ANSI): void => {
    lines.push(paint(`${clock} ${score}${words === '' ? '' : `  ${words}`}`, colour, opts))
  }
  const has = (kind: Change['kind']): boolean => record.changes.some((c) => c.kind === kind)
  const goalEvent = record.changes.some((c) => (c.kind === 'event_added' || c.kind === 'event_removed') && isGoalType(c.event.type))

  for (const c of record.changes) {
    switch (c.kind) {
      case 'fixture_added':
        line(clockLabel(f, at), f.state.phase === 'scheduled' && f.starting_at !== null ? `kick-off ${f.starting_at.slice(11, 16)} UTC` : '')
        break
      case 'state_changed':
        line(clockLabel(f, at), STATE_WORDS[c.state.code] ?? (c.state.phase === 'finished' || c.state.code === 'HT' ? '' : clean(c.state.name).toLowerCase()),
          c.state.phase === 'finished' ? 'bold' : undefined)
        break
      case 'event_added': {
        const words = EVENT_WORDS[c.event.type]
        if (words === undefined) break
        const colour = isGoalType(c.event.type) ? 'green' : c.event.type === 'REDCARD' || c.event.type === 'YELLOWREDCARD' ? 'red' : undefined
        line(minuteOf(c.event), words + who(c.event, f, !isGoalType(c.event.type)), colour)
        break
      }
      case 'event_removed':
        if (isGoalType(c.event.type)) line(minuteOf(c.event), `goal cancelled by VAR${who(c.event, f, false)}`, 'yellow')
        else if (EVENT_WORDS[c.event.type] !== undefined) line(minuteOf(c.event), `${EVENT_WORDS[c.event.type] ?? ''} withdrawn${who(c.event, f, true)}`, 'yellow')
        break
      case 'score_changed':
        // A goal event in the same record already said it; else the goals the change carries (a subscriber to
        // score_changed alone), else the score alone moved.
        if (goalEvent || c.score_type !== undefined) break
        if (c.goals !== undefined) {
          for (const goal of c.goals) line(minuteOf(goal), (EVENT_WORDS[goal.type] ?? 'goal') + who(goal, f, false), 'green')
          break
        }
        line(clockLabel(f, at), (c.home ?? 0) + (c.away ?? 0) > (c.previous.home ?? 0) + (c.previous.away ?? 0) ? 'goal' : 'score corrected', 'green')
        break
      case 'fixture_removed':
        if (!has('state_changed')) line(clockLabel(f, at), 'left the live feed')
        break
      default:
        break // clock, period_changed, fixture_updated, event_updated: bookkeeping
    }
  }
  return lines
}

const ARROWS = { up: '\u2191', down: '\u2193' }

/**
 * The readable lines of odds changes: one per price move (`odds_changed`) and per market suspended, reopened or
 * settled, e.g. `67' Celtic 2-1 Rangers  odds bet365 Fulltime Result 1: 1.50 ↓ (was 1.62)`.
 */
export function oddsLines (changes: readonly OddsChange[], odds: FixtureOdds, fixture: LiveFixture | undefined, opts: FormatOptions = {}): string[] {
  const head = fixture === undefined ? `fixture ${odds.fixture_id}` : `${clockLabel(fixture)} ${scoreLine(fixture)}`
  const market = (c: MarketRef): string => {
    const m = odds.markets.find((x) => marketKey(x) === marketKey(c))
    const line = c.line === null ? '' : ` ${clean(c.line)}`
    return `${clean(m?.bookmaker ?? `bookmaker ${c.bookmaker_id}`)} ${clean(m?.market ?? `market ${c.market_id}`)}${line}`
  }
  // The market names the line (`total`); a selection adds its handicap where it has one.
  const selection = (s: SelectionKey): string => clean([s.label, s.handicap].filter((p) => p !== null).join(' '))
  const lines: string[] = []
  for (const c of changes) {
    if (c.kind === 'odds_changed') {
      const move = c.direction === null ? '' : ` ${ARROWS[c.direction]}`
      const was = c.previous === null ? '' : ` (was ${clean(c.previous.price)})`
      lines.push(paint(`${head}  odds ${market(c)} ${selection(c.selection)}: ${clean(c.price)}${move}${was}`, c.direction === 'up' ? 'green' : c.direction === 'down' ? 'red' : undefined, opts))
    } else if (c.kind === 'market_suspended' || c.kind === 'market_reopened') {
      lines.push(paint(`${head}  odds ${market(c)} ${c.kind === 'market_suspended' ? 'suspended' : 'reopened'}`, 'yellow', opts))
    } else if (c.kind === 'market_settled') {
      lines.push(paint(`${head}  odds ${market(c)} settled: ${c.winning.length === 0 ? 'no winner yet' : c.winning.map(selection).join(', ')}`, 'bold', opts))
    }
  }
  return lines
}

/**
 * The stderr line while nothing answers at the gateway's address (it is down, or the URL is wrong):
 * `cannot reach <url> (ECONNREFUSED); retrying in 2.0 s`, with the network error's code when known.
 */
export function cannotReachLine (what: { url: string, detail?: string, delayMs: number }): string {
  const code = what.detail === undefined ? '' : ` (${clean(what.detail)})`
  return `cannot reach ${what.url}${code}; retrying in ${(what.delayMs / 1000).toFixed(1)} s`
}
