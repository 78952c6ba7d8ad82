/**
 * The client's own types: its options, its connection status and the events it emits. The wire model's
 * types (the fixture, the changes, the frames) are generated, in wire.ts.
 */
import type { BackoffOptions } from '@touchline/core'
import type { Change, FixtureOdds, LeagueStandings, LiveEvent, LiveFixture, LiveState, OddsChange, Side, StandingsChanged, SubscribedKind } from '@touchline/core'

/** A kind of change of the match (the odds kinds are in SubscribedKind). */
export type ChangeKind = Change['kind']

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'offline' | 'refused' | 'closed'
/** Why the client stopped for good (state `refused`). */
export type RefusalReason = 'unauthorized' | 'revoked' | 'origin_refused' | 'too_many_connections' | 'forbidden' | 'invalid_subscription' | 'limit_exceeded'
/** Why the client is retrying (state `reconnecting` or `offline`), when it asked. */
export type RetryReason = 'unreachable' | 'unavailable' | 'offline' | 'forbidden'

/** A stop for good: retrying cannot help. */
export interface RefusedStatus {
  state: 'refused'
  reason: RefusalReason
  /** Plain words for a person: which refusal, and what to do. */
  message: string
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

/**
 * A change as the client hands it out, whatever the wire format: with the fixture after it and each change's
 * previous values (a delta is completed from the fixture held before it).
 */
export interface ClientChangeFrame {
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

export interface ChangeEvent { frame: ClientChangeFrame, fixture: LiveFixture, /** Sent again from history after a reconnection. */ replayed: boolean }
export interface GoalEvent {
  fixture: LiveFixture
  /** The side whose score went up. */
  side: Side
  score: { home: number | null, away: number | null }
  /** The goal event (scorer, minute, penalty or own goal), when the change carries it. */
  event: LiveEvent | undefined
  replayed: boolean
}
export interface StateEvent { fixture: LiveFixture, state: LiveState, previous: LiveState | undefined, replayed: boolean }
/** A fixture held was added or replaced (`removed: false`), or dropped (it left the live set, or a resync). */
export interface FixtureEvent { fixture: LiveFixture, removed: boolean }
/** A snapshot: the state held was replaced (`partial: false`), or fixtures joined it (an added subscription). */
export interface SnapshotEvent {
  partial: boolean
  fixtures: LiveFixture[]
  /** With odds taken: the fixtures' odds images. */
  odds?: FixtureOdds[]
  /** With standings taken: the live tables of the leagues followed that the gateway holds. */
  standings?: LeagueStandings[]
  /**
   * The snapshot of a resume with `since` by a client that held nothing: the changes since the cursor follow
   * it as replayed changes, each emitted once, so what it shows is already the state after them.
   */
  resuming: boolean
}
/** A league's live table changed: the table after it, and the rows that moved. */
export interface StandingsEvent {
  standings: LeagueStandings
  /** The rows that changed (place, points or another figure), with their place and points before. */
  changes: StandingsChanged[]
  /** The frame's resume point and when the gateway saw the change. */
  cursor: string
  at: string
  /** Sent again from history after a reconnection. */
  replayed: boolean
}
/** An error frame the client does not handle itself (e.g. `limit_exceeded`, `invalid_message`). */
export interface ErrorEvent { code: string, message: string, ref?: string | number }

/** An odds frame applied: the fixture's odds image after it, and its changes (a price, a suspension...). */
export interface OddsEvent {
  odds: FixtureOdds
  changes: OddsChange[]
  /** The frame's resume point and when the gateway saw the change. */
  cursor: string
  at: string
  /** Sent again from history after a reconnection. */
  replayed: boolean
}

export interface ClientEvents {
  change: ChangeEvent
  odds: OddsEvent
  standings: StandingsEvent
  goal: GoalEvent
  state: StateEvent
  fixture: FixtureEvent
  snapshot: SnapshotEvent
  status: ClientStatus
  error: ErrorEvent
}

interface Follow {
  /** League ids, or `"*"`: every league the key may see, including leagues that appear later. */
  leagues?: number[] | '*'
  fixtures?: number[]
  /** A change matches when either team is followed. */
  teams?: number[]
  /**
   * Days followed, in `tz`: every fixture kicking off in one of them, live or not (scheduled, finished,
   * postponed), held in `fixtures` from its scheduling to the day's end, with every change before kick-off
   * too. `YYYY-MM-DD`, or `'today'`, `'tomorrow'`, `'yesterday'` as the client's clock reads them in `tz` at
   * the moment of the call. At most 14.
   */
  dates?: string[]
  /**
   * The time zone of `dates` (an IANA name, e.g. `Europe/London`). @default the environment's
   * (`Intl.DateTimeFormat().resolvedOptions().timeZone`); fixed once days are followed.
   */
  tz?: string
  /** Take the fixtures' in-play odds too (`odds` events, `client.odds`); the key needs the odds feature. */
  odds?: boolean
  /**
   * Take the live tables of the leagues followed (by id or `'*'`) too: `standings` events, `client.standings`.
   * A table comes while its league has a match in play, with the matches in play counted at their score.
   */
  standings?: boolean
  /**
   * At most one `odds` event per fixture per this many ms (0 to 10,000; 0: each as it comes), with the latest
   * prices; suspensions, reopenings and settlements are never conflated away. For a screen that redraws no
   * faster anyway.
   */
  conflateMs?: number
}

/**
 * What to follow. `kinds` narrows the changes delivered, and `bookmakers` and `markets` the odds (they take
 * odds); each needs the `full` format (the default with them): a delta applies to the previous version, so
 * every change must arrive. The type refuses them together with `format: 'delta'`.
 */
export type Subscription = Follow & (
  | { kinds?: undefined, bookmakers?: undefined, markets?: undefined, /** @default 'delta' */ format?: 'full' | 'delta' }
  | { kinds?: SubscribedKind[], bookmakers?: number[], markets?: number[], format?: 'full' }
)

/**
 * The WHATWG WebSocket shape the client uses (browsers' own, or `ws`). Handlers take `any`: each
 * implementation types its events its own way, and the client reads only `data`, `code` and `reason`.
 */
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
export type WebSocketConstructor = new (url: string) => WebSocketLike

/** What every client takes, with a key or with tokens. */
interface ClientOptionsBase {
  /** Gateway origin, e.g. `https://scores.example.com` (http(s); the socket URL is derived). */
  url: string
  /** WebSocket implementation. @default globalThis.WebSocket, else the `ws` package (Node 20) */
  WebSocket?: WebSocketConstructor
  backoff?: BackoffOptions
  /**
   * Resume point (a cursor saved from an earlier run): the first connection asks for every change after it
   * instead of a snapshot, so nothing between the two runs is missed.
   */
  since?: string
  /** How long a fixture that left the live set (usually full time) stays in `fixtures`, ms. @default 0 */
  keepRemovedMs?: number
}

/** The client's options: a key, or `getToken` for signed connection tokens (one of the two). */
export type TouchlineClientOptions = ClientOptionsBase & (
  | {
    /** Client key, sent as `api_token`. */
    key: string
    getToken?: undefined
  }
  | {
    /**
     * Signed connection tokens instead of a key (the gateway's docs/tokens.md): called for a token on every
     * connection and again before the current one expires. The token is sent in the socket's first frame, never
     * in its address; a token the gateway refuses as invalid stops the client (status `refused`, reason
     * `unauthorized`), an expired one is asked for again. A call that throws is retried with the backoff.
     */
    getToken: () => string | Promise<string>
    key?: undefined
  }
)
