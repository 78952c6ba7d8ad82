/**
 * The standings poller (docs/architecture.md, "Live tables"): beside the livescore poller, on the same
 * leadership, inside the upstream's `Standing` budget. It follows the leagues with a fixture in the live set
 * and reads a league's live table (`standings/live/leagues/{id}`, the matches in play counted at their score)
 * when that can have changed, not on a clock:
 *  - when what the table counts moves: a fixture of the league kicks off, scores, ends, or enters or leaves
 *    the live set (the live set's scores and states, seen from the store at each step); once at once (after
 *    READ_GAP_MS since its last read, so a goal and its VAR check come in one read) and once more
 *    CONFIRM_AFTER_MS later, in case the upstream had not yet counted it;
 *  - every REFRESH_MS while the league has a fixture in the live set, a safety net;
 *  - once more when its last fixture left the live set (the table as the day ended), then no more.
 * A read's table is diffed (src/standings) and applied to the store, which appends `standings_changed` to the
 * same log as the match's. A league that answers with no table (a cup) or a 403/404 is left until its next
 * refresh. Each read is reserved in the ledger as the other pollers' calls are, leaving the passthrough its
 * share, and the poller claims its bucket for the leagues it follows. Nothing here throws out of the loop.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from 'pino'
import type { BudgetLedger } from '../budget/index.ts'
import { pollerFloor } from '../budget/share.ts'
import type { Metrics } from '../metrics.ts'
import { diffStandings, sameTables, standingsOf } from '../standings/table.ts'
import type { ApplyFence, LiveStore } from '../store/index.ts'
import { UpstreamError, type UpstreamClient } from '../upstream/index.ts'
import { parseStandings } from '../upstream/standings-schemas.ts'
import type { LeagueStandings, LiveFixture } from '../wire-model/model.ts'
import { createClaimKeeper, type ClaimKeeper } from './claim.ts'

/** The upstream's budget entity of standings. */
export const STANDINGS_ENTITY = 'Standing'
/** The includes that name the teams and give the figures behind each row. */
const INCLUDE = { include: 'participant;details' }
/** A league's table is read at least this long after its last read: a goal and its VAR check come in one read. */
export const READ_GAP_MS = 3000
/** A change is read again this long after, in case the upstream's live table lagged the score. */
export const CONFIRM_AFTER_MS = 30_000
/** A league with a fixture in the live set is read at least this often, whatever moved. */
export const REFRESH_MS = 5 * 60_000
/** The longest pause before a failed read is tried again (failures in a row double it from READ_GAP_MS). */
const MAX_RETRY_MS = 60_000
/** Pause between two steps. */
const STEP_MS = 2000
/** Tables read at most per step: the others wait for the next steps. */
const READS_PER_STEP = 4
/** Calls an hour claimed per league followed: a refresh every REFRESH_MS and two reads per goal, kick-off and end. */
const CLAIM_PER_LEAGUE_HOUR = 60

export interface StandingsPollerDeps {
  upstream: UpstreamClient
  ledger: BudgetLedger
  store: LiveStore
  log: Logger
  metrics?: Metrics
  /** As the livescore poller's: writes only while this instance holds the poller lease. */
  fence?: ApplyFence
  now?: () => number
}

export interface StandingsPollerOptions {
  /** Share of the Standing bucket kept for the passthrough's calls. @default 0.2 */
  reserve?: number
  /** Pause between two steps, ms. @default 2000 */
  stepMs?: number
}

export interface StandingsPollerStatus {
  running: boolean
  /** Leagues followed: those with a fixture in the live set (and one just left). */
  leagues: number
  /** Tables read since the start. */
  reads: number
  lastError: string | null
}

export interface StandingsPoller {
  start: () => void
  stop: () => Promise<void>
  /** One step now: the leagues followed, then the tables due. */
  step: () => Promise<void>
  status: () => StandingsPollerStatus
  /**
   * Forgets what it knows of every league (the store lost its log, and the tables with it): each league in
   * play is read again at the next step and its table written whole into the new log.
   */
  forget: () => void
}

/** What the poller knows of each league it follows. */
interface League {
  /** What the table counts, as last seen in the live set: its fixtures' states and scores. */
  signature: string
  /** The table as stored, the base of the next diff (read from the store when the league is first followed). */
  table: LeagueStandings | undefined
  lastReadAt: number
  /** When reads are due, ms: at once after a change, and its confirmation. */
  due: number[]
  /** Its last fixture left the live set: one read more, then it is forgotten. */
  leaving: boolean
  /** It answered with no table (a cup, a plan without it): until then, only its refresh reads it. */
  quietUntil: number
  /** A table read that the store could not take (an outage): written at the next step, not read again. */
  unwritten?: LeagueStandings | undefined
}

export function createStandingsPoller (deps: StandingsPollerDeps, opts: StandingsPollerOptions = {}): StandingsPoller {
  const loop = new StandingsLoop(deps, opts)
  return {
    start: () => loop.start(),
    stop: async () => { await loop.stop() },
    step: async () => { await loop.step() },
    status: () => loop.status(),
    forget: () => loop.forget()
  }
}

/**
 * What a league's live table counts, from its fixtures in the live set: whether each is not started, in
 * play (a half or a break alike: the table counts it at its score) or over, and its score.
 */
function signatureOf (fixtures: readonly LiveFixture[]): string {
  const counted = (f: LiveFixture): string => f.state.phase === 'live' || f.state.phase === 'break' ? 'playing' : f.state.phase
  return fixtures.map((f) => `${f.id}:${counted(f)}:${f.home.score ?? ''}-${f.away.score ?? ''}`).sort().join(',')
}

class StandingsLoop {
  private readonly now: () => number
  private readonly reserve: number
  private readonly stepMs: number
  private readonly leagues = new Map<number, League>()
  private readonly claim: ClaimKeeper
  private abort = new AbortController()
  private loop: Promise<void> | undefined
  private reads = 0
  /** Failed reads in a row: the retry backs off with them (an upstream outage). */
  private failures = 0
  private lastError: string | null = null

  constructor (private readonly deps: StandingsPollerDeps, opts: StandingsPollerOptions) {
    this.now = deps.now ?? Date.now
    this.reserve = opts.reserve ?? 0.2
    this.stepMs = opts.stepMs ?? STEP_MS
    this.claim = createClaimKeeper(deps.ledger, STANDINGS_ENTITY, 'standings', this.now)
  }

  start (): void {
    if (this.loop !== undefined) return
    this.abort = new AbortController()
    this.claim.forget()
    this.failures = 0
    this.lastError = null
    this.loop = this.run()
  }

  forget (): void {
    this.leagues.clear()
  }

  async stop (): Promise<void> {
    this.abort.abort()
    await this.loop
    this.loop = undefined
    this.leagues.clear()
  }

  status (): StandingsPollerStatus {
    return { running: this.loop !== undefined, leagues: this.leagues.size, reads: this.reads, lastError: this.lastError }
  }

  private async run (): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.step()
      await sleep(this.stepMs, undefined, { signal: this.abort.signal }).catch(() => undefined)
    }
  }

  async step (): Promise<void> {
    try {
      await this.follow()
      for (const id of this.due().slice(0, READS_PER_STEP)) {
        if (this.abort.signal.aborted) return
        await this.read(id)
      }
      if (this.leagues.size > 0) {
        await this.claim.keep({ perHour: this.leagues.size * CLAIM_PER_LEAGUE_HOUR, reserve: this.reserve, lumps: this.leagues.size }, this.stepMs)
      }
    } catch (err) {
      // The store could not be read: the next step tries again.
      this.lastError = (err as Error).name
      if (!this.abort.signal.aborted) this.deps.log.warn({ err }, 'standings step failed')
    }
  }

  /** The leagues with a fixture in the live set, and which of them moved since the last step. */
  private async follow (): Promise<void> {
    const t = this.now()
    const byLeague = new Map<number, LiveFixture[]>()
    for (const f of await this.deps.store.liveFixtures()) {
      const list = byLeague.get(f.league_id)
      if (list === undefined) byLeague.set(f.league_id, [f])
      else list.push(f)
    }
    const unknown = [...byLeague.keys()].filter((id) => !this.leagues.has(id))
    const stored = new Map((await this.deps.store.getStandings(unknown)).map((s) => [s.league_id, s]))
    for (const [id, fixtures] of byLeague) {
      const signature = signatureOf(fixtures)
      const league = this.leagues.get(id)
      if (league === undefined) {
        this.leagues.set(id, { signature, table: stored.get(id), lastReadAt: -Infinity, due: [t], leaving: false, quietUntil: 0 })
      } else if (league.signature !== signature) {
        league.signature = signature
        league.leaving = false
        league.due = [Math.max(t, league.lastReadAt + READ_GAP_MS), t + CONFIRM_AFTER_MS]
      }
    }
    for (const [id, league] of this.leagues) {
      if (byLeague.has(id) || league.leaving) continue
      // Its last fixture left the live set: the table as it stands after it, once.
      league.leaving = true
      league.signature = ''
      league.due = [Math.max(t, league.lastReadAt + READ_GAP_MS)]
    }
  }

  /** The leagues whose read is due, the longest waiting first. */
  private due (): number[] {
    const t = this.now()
    const waiting: Array<[number, number]> = []
    for (const [id, league] of this.leagues) {
      const changed = league.unwritten !== undefined ? t : league.quietUntil > t ? Infinity : Math.min(...league.due)
      const at = Math.min(changed, league.lastReadAt + REFRESH_MS)
      if (at <= t) waiting.push([id, at])
    }
    return waiting.sort((a, b) => a[1] - b[1]).map(([id]) => id)
  }

  /** Reads a league's table and applies what moved; a failure leaves it for a later step. */
  private async read (id: number): Promise<void> {
    const league = this.leagues.get(id)
    if (league === undefined) return
    if (league.unwritten !== undefined) {
      await this.write(league, league.unwritten)
      if (league.leaving && league.due.length === 0 && league.unwritten === undefined && this.leagues.get(id) === league) this.leagues.delete(id)
      return
    }
    const t = this.now()
    league.due = league.due.filter((at) => at > t)
    if (!await this.reserveCall()) {
      // Refused: tried again at the next step.
      league.due.unshift(t + this.stepMs)
      this.deps.metrics?.polls.inc({ kind: 'standings', outcome: 'skipped' })
      return
    }
    league.lastReadAt = t
    try {
      const res = await this.deps.upstream.get(`/football/standings/live/leagues/${id}`, INCLUDE, { signal: this.abort.signal })
      this.reads++
      const next = standingsOf(id, parseStandings(res.envelope), new Date(this.now()).toISOString())
      this.failures = 0
      this.lastError = null
      this.deps.metrics?.polls.inc({ kind: 'standings', outcome: 'ok' })
      if (next === undefined) league.quietUntil = t + REFRESH_MS
      else await this.write(league, next)
    } catch (err) {
      // No table for this league (a cup, a plan or an upstream without it): no failure, and left until its
      // refresh. Else tried again soon.
      const none = err instanceof UpstreamError && (err.status === 403 || err.status === 404)
      this.deps.metrics?.polls.inc({ kind: 'standings', outcome: none ? 'none' : 'error' })
      if (!none) this.lastError = err instanceof UpstreamError ? err.code : (err as Error).name
      if (none) league.quietUntil = t + REFRESH_MS
      else league.due.unshift(this.now() + Math.min(MAX_RETRY_MS, READ_GAP_MS * 2 ** this.failures++))
      if (!none && !this.abort.signal.aborted) this.deps.log.warn({ err, leagueId: id }, 'live table could not be read')
    }
    if (league.leaving && league.due.length === 0 && league.unwritten === undefined && this.leagues.get(id) === league) this.leagues.delete(id)
  }

  /**
   * Stores the league's next table with the rows that moved; nothing when nothing did. Written by someone
   * else meanwhile (a new leader, or the table gone with a lost log): diffed again against the stored one and
   * written once more. A store that fails keeps the table for the next step (no read spent again).
   */
  private async write (league: League, next: LeagueStandings): Promise<void> {
    league.unwritten = undefined
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (sameTables(league.table, next)) return
        const moves = diffStandings(league.table, next)
        // Only rows gone (a team out of a table): the table is sent whole, every row named.
        const rows = moves.length > 0 ? moves : diffStandings(undefined, next)
        const fence = this.deps.fence === undefined ? {} : { fence: this.deps.fence }
        const result = await this.deps.store.applyStandings({ standings: next, changes: [{ kind: 'standings_changed', rows }], expectedVersion: league.table?.version ?? 0, at: next.updated_at, ...fence })
        if (result.ok) {
          league.table = result.record.standings
          return
        }
        // No longer the leader: its successor reads and writes the tables.
        if ('fenced' in result) return
        league.table = (await this.deps.store.getStandings([next.league_id]))[0]
      }
    } catch (err) {
      league.unwritten = next
      this.lastError = (err as Error).name
      if (!this.abort.signal.aborted) this.deps.log.warn({ err, leagueId: next.league_id }, 'live table could not be stored; written at the next step')
    }
  }

  /** Reserves one Standing call, leaving the passthrough its share; false when the budget (or the ledger) says no. */
  private async reserveCall (): Promise<boolean> {
    try {
      const bucket = await this.deps.ledger.get(STANDINGS_ENTITY)
      return await this.deps.ledger.reserve(STANDINGS_ENTITY, 1, { by: 'pollers', floor: pollerFloor(bucket, this.reserve) })
    } catch {
      return false
    }
  }
}
