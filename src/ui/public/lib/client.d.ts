/**
 * Types of `touchline/client` (client.js beside this file): written by hand, self-contained so an app's
 * compiler needs nothing else of the package. test/unit/client/api.typecheck.ts keeps them true: it uses
 * the API through the package name and checks that LiveFixture and the change types match the gateway's
 * own (src/live/types.ts).
 */

export type Side = 'home' | 'away'
export type Phase = 'scheduled' | 'live' | 'break' | 'finished' | 'postponed' | 'cancelled' | 'suspended' | 'unknown'

export interface LiveTeam { id: number, name: string, short_code: string | null, image_path: string | null, score: number | null }
export interface LiveState { id: number, code: string, name: string, phase: Phase }
export interface LiveEvent {
  id: number
  type_id: number
  /** GOAL, OWNGOAL, PENALTY, YELLOWCARD, REDCARD, ... */
  type: string
  minute: number | null
  extra_minute: number | null
  side: Side | null
  team_id: number | null
  player: { id: number | null, name: string | null } | null
  related_player: { id: number | null, name: string | null } | null
  result: string | null
  info: string | null
  addition: string | null
  sort_order: number | null
}
/** What a client needs to run the match clock itself (see runningMinute in clock.js). */
export interface MatchClock {
  period_started_at: string
  counts_from: number
  length: number | null
  added: number | null
  rate: number
  ticking: boolean
}
/** The gateway's normalized fixture (DESIGN §4). */
export interface LiveFixture {
  id: number
  league_id: number
  season_id: number | null
  stage_id: number | null
  round_id: number | null
  name: string | null
  starting_at: string | null
  state: LiveState
  minute: number | null
  period: string | null
  clock?: MatchClock | null
  home: LiveTeam
  away: LiveTeam
  /** By score type: current, 1st_half, 2nd_half, penalty_shootout, ... */
  scores: Record<string, { home: number, away: number }>
  events: LiveEvent[]
  result_info: string | null
  length: number | null
  updated_at: string
  /** +1 per change set: a delta applies to exactly the previous version. */
  version: number
}

export type ChangeKind =
  | 'fixture_added' | 'state_changed' | 'score_changed' | 'event_added' | 'event_updated' | 'event_removed'
  | 'period_changed' | 'clock' | 'fixture_updated' | 'fixture_removed'

export type Change =
  | { kind: 'fixture_added' }
  | { kind: 'state_changed', state: LiveState, previous: LiveState }
  | { kind: 'score_changed', home: number | null, away: number | null, previous: { home: number | null, away: number | null }, score_type?: string }
  /** `index`: where the event went in `events` when not last (delta frames). */
  | { kind: 'event_added', event: LiveEvent, index?: number }
  | { kind: 'event_updated', event: LiveEvent, previous: LiveEvent }
  | { kind: 'event_removed', event: LiveEvent }
  | { kind: 'period_changed', period: string | null, previous: string | null }
  | { kind: 'clock', minute: number | null, previous: number | null, clock?: MatchClock | null }
  | { kind: 'fixture_updated', fields: Record<string, { value: unknown, previous?: unknown }> }
  | { kind: 'fixture_removed' }

/**
 * A change as the client hands it out: always with the fixture after it and each change's previous values,
 * whatever the wire format (a delta is completed from the fixture held before it; its score types other than
 * the current one and the shoot-out's come as `score_changed` with `score_type`, where a full frame has them in
 * `fixture_updated`).
 */
export interface ChangeFrame {
  type: 'change'
  /** Opaque resume point. */
  cursor: string
  fixture_id: number
  league_id: number
  at: string
  changes: Change[]
  fixture: LiveFixture
  /** Present when the frame came in the `delta` format. */
  version?: number
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'refused' | 'closed'
/** Why the client stopped for good (state `refused`). */
export type RefusalReason = 'unauthorized' | 'revoked' | 'origin_refused' | 'too_many_connections' | 'forbidden'
/** Why the client is retrying (state `reconnecting` or `offline`), when it asked. */
export type RetryReason = 'unreachable' | 'unavailable' | 'offline' | 'forbidden'

/** A stop for good: retrying cannot help. */
export interface RefusedStatus {
  state: 'refused'
  reason: RefusalReason
  /** Plain words for a person: which refusal, and what to do. */
  message: string
  /** No next attempt. */
  retryInMs?: never
  detail?: never
}

export interface ConnectionStatus {
  state: Exclude<ConnectionState, 'refused'>
  /** With `reconnecting` and `offline`: the pause before the next attempt. */
  retryInMs?: number
  /** Plain words for a person: why it is retrying. */
  message?: string
  /** What the gateway's HTTP side said when the socket would not open. */
  reason?: RetryReason
  /** With `unreachable` in Node: the network error's code (ECONNREFUSED, ENOTFOUND...). */
  detail?: string
}

export type ClientStatus = RefusedStatus | ConnectionStatus

export interface ChangeEvent { frame: ChangeFrame, fixture: LiveFixture, /** Sent again from history after a reconnection. */ replayed: boolean }
export interface GoalEvent {
  fixture: LiveFixture
  /** The side whose score went up. */
  side: Side
  score: { home: number | null, away: number | null }
  /** The goal event added in the same change, when there is one. */
  event: LiveEvent | undefined
  replayed: boolean
}
export interface StateEvent { fixture: LiveFixture, state: LiveState, previous: LiveState | undefined, replayed: boolean }
/** A fixture held was added or replaced (`removed: false`), or dropped (it left the live set, or a resync). */
export interface FixtureEvent { fixture: LiveFixture, removed: boolean }
/** A snapshot: the state held was replaced (`partial: false`), or fixtures joined it (an added subscription). */
export interface SnapshotEvent { partial: boolean, fixtures: LiveFixture[] }
/** An error frame the client does not handle itself (e.g. `limit_exceeded`, `invalid_message`). */
export interface ErrorEvent { code: string, message: string, ref?: string | number }

export interface ClientEvents {
  change: ChangeEvent
  goal: GoalEvent
  state: StateEvent
  fixture: FixtureEvent
  snapshot: SnapshotEvent
  status: ClientStatus
  error: ErrorEvent
}

export interface Subscription {
  /** League ids, or `"*"`: every league the key may see, including leagues that appear later. */
  leagues?: number[] | '*'
  fixtures?: number[]
  /** A change matches when either team is followed. */
  teams?: number[]
  /** Only these kinds of change are delivered (needs format `full`, the default when kinds are given). */
  kinds?: ChangeKind[]
  /** @default 'delta' (or 'full' with kinds) */
  format?: 'full' | 'delta'
}

/** The WHATWG WebSocket shape the client uses (browsers' own, or `ws`). */
export interface WebSocketLike {
  readonly readyState: number
  onopen: ((ev: any) => void) | null
  /** Called with `{ data }` (text frames as strings). */
  onmessage: ((ev: any) => void) | null
  /** Called with `{ code, reason }`. */
  onclose: ((ev: any) => void) | null
  onerror: ((ev: any) => void) | null
  send: (data: string) => void
  close: (code?: number, reason?: string) => void
}

export interface BackoffOptions {
  /** First pause, ms. @default 500 */
  baseMs?: number
  /** Longest pause, ms: the cap applies before the jitter. @default 15000 */
  capMs?: number
  /** `equal`: between half the capped value and all of it; `full`: between 0 and all. @default 'equal' */
  jitter?: 'equal' | 'full'
}

export interface TouchlineClientOptions {
  /** Gateway origin, e.g. `https://scores.example.com` (http(s); the socket URL is derived). */
  url: string
  /** Client key, sent as `api_token`. */
  key: string
  /** WebSocket implementation. @default globalThis.WebSocket, else the `ws` package (Node 20) */
  WebSocket?: new (url: string) => WebSocketLike
  backoff?: BackoffOptions
  /** Resume point for the first subscribe (a cursor from an earlier run): no snapshot, the changes since it. */
  since?: string
  /** How long a fixture that left the live set (usually full time) stays in `fixtures`, ms. @default 0 */
  keepRemovedMs?: number
}

export declare const MAX_SUBSCRIPTIONS: number
export declare const REFUSALS: Readonly<Record<RefusalReason, string>>

/** The pause before reconnection attempt `attempt` (1, 2, ...): min(cap, base * 2^(attempt-1)), then jittered. */
export declare function backoffDelay (attempt: number, opts?: BackoffOptions & { random?: () => number }): number

/** What a change frame does to the fixture held: applied (the fixture after it), stale (not newer) or a gap (a lost frame). */
export declare function nextFixture (held: LiveFixture | undefined, frame: Omit<ChangeFrame, 'fixture'> & { fixture?: LiveFixture }):
  { status: 'applied', fixture: LiveFixture } | { status: 'stale' } | { status: 'gap' }

export declare class TouchlineClient {
  constructor (opts: TouchlineClientOptions)
  /** The live fixtures followed, by id: current after every event. */
  readonly fixtures: Map<number, LiveFixture>
  /** The last cursor applied: where a reconnection resumes. */
  readonly cursor: string | undefined
  readonly status: ClientStatus
  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof ClientEvents>(type: K, listener: (event: ClientEvents[K]) => void): () => void
  off<K extends keyof ClientEvents>(type: K, listener: (event: ClientEvents[K]) => void): void
  /** Follows more (before or after connect); throws TypeError for kinds with format `delta`. */
  subscribe (what?: Subscription): this
  /**
   * Follows less; the fixtures no longer followed are forgotten at once (a `fixture` event with removed:
   * true each) and frames for them still on the way are dropped.
   */
  unsubscribe (what?: Pick<Subscription, 'leagues' | 'fixtures' | 'teams'>): this
  /** Opens the connection; resolves with the status once live or refused, or `closed` if close() comes first (never rejects). */
  connect (): Promise<ClientStatus>
  /** Retries at once instead of waiting out the backoff. */
  reconnectNow (): void
  /** Closes the connection for good. */
  close (): void
}
