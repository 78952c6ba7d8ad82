/**
 * A local HTTP server that answers the way the real football data API does (docs/upstream.md), not
 * the way our embedded provider does: for tests of the gateway against the real shapes. Port 0, real HTTP.
 *
 * Observed (real captures in test/fixtures/upstream/real/ and recorded/, or quoted from the docs):
 * - bodies: those of test/fixtures/upstream/real/*.json for their paths (January 2023: legacy `home_score`,
 *   `away_score`, `last_processed_at`, no `has_premium_odds`, no includes, `subscription[].meta` = []);
 * - `rate_limit: { resets_in_seconds, remaining, requested_entity }` with no total, per entity
 *   (`Fixture` for fixtures and livescores, `State` for states);
 * - `latest` answers an array (`data: [...]`), and 200 with a `message` and no `data` when nothing changed;
 * - 401 `{"message":"Unauthenticated."}`; include keys lower-cased (`detailedperiods`, `currentperiod`);
 * - a shoot-out period row with `period_length`, `started`, `time_added` null (the docs' World Cup example).
 * Inferred (not seen in a capture; the closest guess):
 * - no `x-ratelimit-*` headers (the docs name none; one client reads a global pair we ignore on purpose);
 * - 429 `{"message":"Too Many Attempts."}` (Laravel wording from a client's test fixture) once `remaining`
 *   is 0, until the window resets an hour after its first call; 401 and 429 do not count, a 200 "No
 *   result(s)" does (a PHP client's docs);
 * - `latest` answering "No result(s)" by default (any 10 s window without a tracked change does);
 * - `fixtures` pages after the captured page 1 answering "No result(s)"; `next_page` pointing at this server
 *   (the capture points at the real host);
 * - the live shoot-out fixture: the PSG–Arsenal recording (final state FT_PEN) rewound to state 9 after six
 *   kicks, with `currentperiod` and `detailedperiods` derived from its periods;
 * - includes: only the requested ones are sent (base fields always), by their lower-cased name;
 * - a repeated parameter (`include=a&include=b`) counts with its last value, as PHP reads a query;
 * - cursor pages (docs/upstream.md, "Pagination"; since 2026-06-05): `pagination { count, per_page, current_page,
 *   next_page, next_cursor, has_more }`; `next_cursor` is a full URL with the host and `api_token` (the
 *   official MCP's description) or a bare token (the docs' example), null on the last page; the token is
 *   opaque (here it encodes offset and page size); `cursor` with `per_page` is a 400 (the MCP's comment);
 *   an offset page past 20,000 rows is a 400 with code 5003 (the changelog says "a 4xx");
 * - the paths and includes of the surface table (`SURFACE`, `FIXTURE_INCLUDES`): the paths are those of
 *   real-paths.md, but their rows are small ones shaped after the docs' field tables (no capture), and
 *   each path's `requested_entity` is a guess following the naming of the rate-limit buckets; the fixture's
 *   includes come from the PSG–Arsenal recording or, for those it lacks, from small rows after the docs;
 * - the server also accepts names our catalogue does not have (the include `momentum`, the path
 *   `/football/momentum/fixtures/{id}`), as the real API gains names; an include it does not know is a 400
 *   with code 5001 "Include not found" (the documented error code; the status is a guess), a path it does not have a 404;
 * - JSON written as PHP's `json_encode` writes it by default, `/` escaped as `\/` (the captures went through
 *   Postman's formatter, so they cannot show it): links then name the host as `https:\/\/...`;
 * - the cursor token looks like Laravel's (base64url JSON without padding), the framework the 429 wording
 *   points to; a client must treat it as opaque anyway.
 *
 * Data-driven: `routes` maps a path pattern (`{name}` matches one segment) to a handler; tests add or
 * replace one with `set`, or pin an answer with `respond`; `pagedList` pages any rows (either cursor form);
 * `SURFACE` lists the paths served beyond the captures. Every request is recorded in `requests` with the
 * status it got (0 for a hang-up).
 */
import { readFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { LIVE_STATE_IDS } from '../../packages/upstream-contract/src/states.ts'

const SHARED_DATA = new URL('../fixtures/upstream/', import.meta.url)

export const NO_RESULTS = 'No result(s) found matching your request. Either the query did not return any results or you don\'t have access to it via your current subscription.'
export const SHOOTOUT_FIXTURE_ID = 19683241

type Json = Record<string, any>

export interface RealRequest {
  /** Path under `/v3`, e.g. `/football/livescores`. */
  path: string
  /** The query as sent, `api_token` included (tests check what was sent). */
  query: URLSearchParams
  headers: IncomingHttpHeaders
  /** Path parameters of the matched route (`{ids}` → `params.ids`). */
  params: Record<string, string>
  /** The status it was answered with (0: the connection was closed without an answer). */
  status?: number
}

export interface RealReply {
  status?: number
  /** A JSON body (a 200 object gets the bucket's `rate_limit`, replacing any it has), or a raw string. */
  body?: unknown
  headers?: Record<string, string>
  /** Rate-limit bucket the call is charged to. @default the route's entity */
  entity?: string
  /** Closes the connection without answering (a reset on the way), charging nothing. */
  hangUp?: boolean
}

export type RealHandler = (req: RealRequest, server: RealUpstream) => RealReply

export interface RealRoute {
  /** Bucket (`requested_entity`) the path draws on. */
  entity: string
  handler: RealHandler
}

export interface RealUpstreamOptions {
  /** The token it accepts. @default 'real-secret-token' */
  token?: string
  /** `remaining` of every entity bucket at the start of its window. @default 40 */
  remaining?: number
  /** Wall clock in epoch ms (rate-limit windows). @default Date.now */
  now?: () => number
}

export interface RealUpstream {
  /** Base URL including `/v3`. */
  baseUrl: string
  origin: string
  token: string
  /** Every request received, in order, whatever the answer. */
  requests: RealRequest[]
  /** Requests to one exact path. */
  hits: (path: string) => RealRequest[]
  /** Adds or replaces the route of a path pattern, e.g. `/football/fixtures/multi/{ids}`. */
  set: (pattern: string, route: RealHandler | RealRoute) => void
  /** Answers a path pattern with a fixed reply from now on (charged to the route's entity, or `Fixture`). */
  respond: (pattern: string, reply: RealReply) => void
  /** `remaining` of an entity bucket now (its start value before the first call). */
  remaining: (entity?: string) => number
  /** Sets `remaining` of an entity bucket (e.g. 0 to get 429s). */
  setRemaining: (entity: string, remaining: number) => void
  /** The fixtures livescores answers (the real capture's plus the live shoot-out); tests may edit them. */
  live: Json[]
  close: () => Promise<void>
}

/**
 * The settings of a gateway that polls the stand-in at its floor: `latest` every 100 ms, a reconcile every
 * 2 s, every log line kept (the tests read them for the token).
 */
export function pollingGatewayEnv (upstream: RealUpstream, token: string): Record<string, string> {
  return {
    TOUCHLINE_UPSTREAM_URL: upstream.baseUrl,
    TOUCHLINE_UPSTREAM_TOKEN: token,
    TOUCHLINE_POLL_FLOOR_MS: '100',
    TOUCHLINE_RECONCILE_INTERVAL_MS: '2000',
    TOUCHLINE_LOG_LEVEL: 'trace'
  }
}

export function readShared (relative: string): Json {
  return JSON.parse(readFileSync(new URL(relative, SHARED_DATA), 'utf8')) as Json
}

/** The 200 the real API sends when nothing matches: no `data`. */
export function noResults (): Json {
  return { message: NO_RESULTS, subscription: [{ meta: [], plans: [], add_ons: [], widgets: [] }], timezone: 'UTC' }
}

/**
 * The PSG–Arsenal recording rewound into its shoot-out: state 9 after `kicks` kicks, the shoot-out score of
 * those kicks, the penalties period ticking with null `period_length`, `started`, `time_added`, `minutes`.
 */
export function liveShootout (kicks = 6): Json {
  const recorded = readShared('recorded/fixture-19683241-psg-arsenal-penalties.json').data as Json
  const isKick = (e: Json): boolean => e.type_id === 22 || e.type_id === 23
  const events = (recorded.events as Json[]).filter((e) => !isKick(e) || e.minute <= kicks)
  const goals = (teamId: number): number => events.filter((e) => e.type_id === 23 && e.participant_id === teamId).length
  const scores = (recorded.scores as Json[]).map((s) => s.type_id === 5 ? { ...s, score: { ...s.score, goals: goals(s.participant_id) } } : s)
  const periods = (recorded.periods as Json[]).map((p) => p.type_id === 5
    ? { ...p, started: null, ended: null, ticking: true, time_added: null, period_length: null, minutes: null, seconds: null }
    : p)
  const penalties = periods.find((p) => p.type_id === 5)
  return {
    ...recorded,
    state_id: 9,
    result_info: null,
    state: { id: 9, state: 'INPLAY_PENALTIES', name: 'Penalties', short_name: 'PEN', developer_name: 'INPLAY_PENALTIES' },
    participants: (recorded.participants as Json[]).map((p) => ({ ...p, meta: { ...p.meta, winner: null } })),
    scores,
    events,
    periods,
    detailedperiods: periods.map((p) => ({ ...p })),
    currentperiod: { ...penalties }
  }
}

/** A query parameter as PHP reads it: the last value of a repeated one (inferred). */
export function param (req: RealRequest, name: string): string | null {
  return req.query.getAll(name).at(-1) ?? null
}

/** Base fields plus the requested includes (lower-cased, first segment of a nested one). */
function withIncludes (fixture: Json, include: string | null): Json {
  const wanted = new Set((include ?? '').split(';').map((part) => part.split(/[.:]/)[0]?.trim().toLowerCase()).filter(Boolean))
  const out: Json = {}
  for (const [key, value] of Object.entries(fixture)) {
    const isInclude = value !== null && typeof value === 'object'
    if (!isInclude || wanted.has(key)) out[key] = value
  }
  return out
}

/** An envelope of fixtures shaped by the request's includes; "No result(s)" when there are none. */
function fixturesReply (fixtures: Json[], req: RealRequest): RealReply {
  if (fixtures.length === 0) return { body: noResults() }
  const file = readShared('real/livescores-2023.json')
  return { body: { ...file, data: fixtures.map((f) => withIncludes(f, param(req, 'include'))) } }
}

/** An envelope around `data` with the capture's `subscription` and `timezone` (`rate_limit` is added on the way out). */
export function envelope (data: unknown, extra: Json = {}): Json {
  const { subscription, timezone } = readShared('real/livescores-2023.json')
  return { data, ...extra, subscription, timezone }
}

/** How `next_cursor` is written: a full URL with host and `api_token` (the official MCP) or a bare token (the docs). */
export type CursorForm = 'url' | 'token'

/** Rows offset pagination serves at most (changelog 2026-06-23): a page starting past them is refused. */
export const OFFSET_ROWS_MAX = 20_000

/** The opaque cursor: where the next page starts and the walk's page size. */
function cursorOf (offset: number, perPage: number): string {
  return Buffer.from(JSON.stringify({ o: offset, n: perPage })).toString('base64url')
}

function readCursorOf (cursor: string): { offset: number, perPage: number } | undefined {
  try {
    const { o, n } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o: unknown, n: unknown }
    return Number.isInteger(o) && Number.isInteger(n) ? { offset: o as number, perPage: n as number } : undefined
  } catch {
    return undefined
  }
}

/**
 * A paged list of `rows` (a function: tests may change them), by `page`/`per_page` or by `cursor`, with the
 * pagination block described at the top of this file. An empty page is "No result(s)".
 */
export function pagedList (rows: () => Json[], form: CursorForm = 'token'): RealHandler {
  return (req, server) => {
    const cursor = param(req, 'cursor')
    const perPageParam = param(req, 'per_page')
    let at: { offset: number, perPage: number } | undefined
    if (cursor !== null) {
      if (perPageParam !== null) return { status: 400, body: { message: 'The per_page parameter cannot be combined with cursor.', code: 5006 } }
      at = readCursorOf(cursor)
      if (at === undefined) return { status: 400, body: { message: 'The cursor is invalid.', code: 5006 } }
    } else {
      const perPage = Math.min(50, Math.max(1, Number(perPageParam ?? 25)))
      const offset = (Number(param(req, 'page') ?? 1) - 1) * perPage
      if (offset > OFFSET_ROWS_MAX) return { status: 400, body: { message: 'Offset pagination is limited to 20000 rows. Use cursor pagination.', code: 5003 } }
      at = { offset, perPage }
    }
    const all = rows()
    const data = all.slice(at.offset, at.offset + at.perPage)
    if (data.length === 0) return { body: noResults() }
    const hasMore = at.offset + at.perPage < all.length
    const currentPage = Math.floor(at.offset / at.perPage) + 1
    const token = cursorOf(at.offset + at.perPage, at.perPage)
    const pagination = {
      count: data.length,
      per_page: at.perPage,
      current_page: currentPage,
      next_page: hasMore ? `${server.baseUrl}${req.path}?page=${currentPage + 1}` : null,
      next_cursor: !hasMore ? null : form === 'token' ? token : `${server.baseUrl}${req.path}?cursor=${token}&api_token=${server.token}`,
      has_more: hasMore
    }
    return { body: envelope(data, { pagination }) }
  }
}

/** The 25 fixtures of the captured `/football/fixtures` page 1, as rows for a paged list. */
export const capturedFixtures = (): Json[] => readShared('real/fixtures-all-2023.json').data as Json[]

/** The full fixture with includes the fixture route serves (the PSG–Arsenal recording, final state). */
export const RECORDED_FIXTURE_ID = 19683241

/**
 * Fixture includes the server knows (the docs' fixture include list; docs/upstream.md, "Includes"), by lower-cased
 * name; `momentum` is one our catalogue does not have. The value is the recording's when it has one, else
 * this table's (small rows after the docs' field tables; inferred).
 */
const FIXTURE_INCLUDES: Record<string, Json[] | Json | null> = {
  sport: { id: 1, name: 'Football' },
  league: { id: 2, name: 'Champions League' },
  season: { id: 23619, name: '2024/2025' },
  stage: null,
  round: null,
  group: null,
  aggregate: null,
  venue: { id: 2135, name: 'Parc des Princes' },
  coaches: [{ id: 455361, fixture_id: RECORDED_FIXTURE_ID, participant_id: 591, common_name: 'L. Enrique', meta: { participant_id: 591 } }],
  tvstations: [{ id: 1, fixture_id: RECORDED_FIXTURE_ID, tvstation_id: 61, country_id: 17 }],
  weatherreport: { id: 1, fixture_id: RECORDED_FIXTURE_ID, type: 'current', description: 'clear sky', temperature: { day: 12.1 }, wind: { speed: 2.5 } },
  expectedlineups: [],
  formations: [{ id: 1, fixture_id: RECORDED_FIXTURE_ID, participant_id: 591, formation: '4-3-3', location: 'home' }],
  trends: [{ id: 1, fixture_id: RECORDED_FIXTURE_ID, participant_id: 591, type_id: 42, period_id: 6979229, value: 3, minute: 10 }],
  metadata: [{ id: 1, metadatable_id: RECORDED_FIXTURE_ID, type_id: 575, value_type: 'object', values: { home: '#ffffff', away: '#000000' } }],
  sidelined: [{ id: 1, fixture_id: RECORDED_FIXTURE_ID, sideline_id: 1, participant_id: 19, sideline: { id: 1, player_id: 37, category: 'injury' } }],
  referees: [],
  ballcoordinates: [],
  pressure: [],
  prematchnews: [],
  postmatchnews: [],
  matchfacts: [],
  xgfixture: [],
  predictions: [],
  odds: [],
  premiumodds: [],
  inplayodds: [],
  momentum: [{ fixture_id: RECORDED_FIXTURE_ID, participant_id: 591, minute: 12, value: 0.4 }]
}
for (const name of ['participants', 'scores', 'events', 'timeline', 'comments', 'periods', 'detailedperiods', 'currentperiod', 'statistics', 'lineups', 'state']) FIXTURE_INCLUDES[name] = null

/** What a nested include adds to a row (`events.period`, `statistics.type`, `state.type`): inferred shapes. */
function nested (name: string, row: Json, fixture: Json): unknown {
  if (name === 'period') return (fixture.periods as Json[]).find((p) => p.id === row.period_id) ?? null
  if (name === 'type') return row.type ?? { id: row.type_id ?? row.id, name: `type ${String(row.type_id ?? row.id)}`, developer_name: `TYPE_${String(row.type_id ?? row.id)}` }
  return null
}

/** The fixture with the requested includes, or the 400 the API sends for an include it does not know. */
function fixtureWithIncludes (fixture: Json, include: string | null): RealReply {
  const out: Json = withIncludes(fixture, null)
  for (const part of (include ?? '').split(';').filter((p) => p.trim() !== '')) {
    const [relation = '', ...rest] = part.split(':')[0]?.split('.') ?? []
    const key = relation.toLowerCase()
    if (!(key in FIXTURE_INCLUDES)) {
      return { status: 400, body: { message: `Requested include '${relation}' does not exist.`, code: 5001, link: 'https://docs.sportmonks.com/football/api/response-codes/include-exceptions' } }
    }
    let value = structuredClone(fixture[key] ?? FIXTURE_INCLUDES[key] ?? null)
    const child = rest[0]?.toLowerCase()
    if (child !== undefined && value !== null) {
      const rows = Array.isArray(value) ? value : [value]
      for (const row of rows as Json[]) row[child] = nested(child, row, fixture)
      value = Array.isArray(value) ? rows : rows[0]
    }
    out[key] = value
  }
  return { body: envelope(out) }
}

/**
 * Paths of real-paths.md beyond the captures (and one the catalogue lacks), with their bucket and small rows
 * after the docs (inferred). Lists are paged like every list.
 */
const SURFACE: Record<string, { entity: string, rows?: (p: Record<string, string>) => Json[], one?: (p: Record<string, string>) => Json | Json[] }> = {
  '/football/topscorers/seasons/{seasonId}': {
    entity: 'Topscorer',
    rows: ({ seasonId }) => [1, 2, 3].map((position) => ({ id: 1000 + position, season_id: Number(seasonId), player_id: 180 + position, type_id: 208, position, total: 13 - position, participant_id: 591 }))
  },
  '/football/squads/teams/{teamId}': {
    entity: 'TeamSquad',
    one: ({ teamId }) => [{ id: 1, transfer_id: null, player_id: 3130, team_id: Number(teamId), position_id: 24, detailed_position_id: 24, jersey_number: 1, start: '2024-07-01', end: '2029-06-30' }]
  },
  '/football/transfers': {
    entity: 'Transfer',
    rows: () => [{ id: 1, sport_id: 1, player_id: 3130, type_id: 218, from_team_id: 10, to_team_id: 19, position_id: 24, detailed_position_id: 24, date: '2024-07-01', career_ended: false, completed: true, amount: 31000000 }]
  },
  '/football/tv-stations/fixtures/{fixtureId}': {
    entity: 'TvStation',
    one: () => [{ id: 61, name: 'Canal+', url: 'https://www.canalplus.com', image_path: 'https://cdn.example/tv/61.png', type: 'tv', related_id: null }]
  },
  '/football/fixtures/upcoming/markets/{marketId}': { entity: 'Fixture', rows: () => capturedFixtures().slice(0, 3) },
  // The poller lists upcoming kick-offs here (src/poller/kickoffs.ts); the captured fixtures are all of 2023.
  '/football/fixtures/between/{startDate}/{endDate}': { entity: 'Fixture', rows: () => capturedFixtures() },
  '/odds/markets': { entity: 'Market', rows: () => [{ id: 1, legacy_id: 1, name: 'Fulltime Result', developer_name: 'FULLTIME_RESULT', has_winning_calculations: true }] },
  '/odds/bookmakers': { entity: 'Bookmaker', rows: () => [{ id: 2, legacy_id: 2, name: 'bet365' }] },
  '/football/momentum/fixtures/{fixtureId}': {
    entity: 'Momentum',
    one: ({ fixtureId }) => [{ fixture_id: Number(fixtureId), participant_id: 591, minute: 12, value: 0.4 }]
  }
}

function compile (pattern: string): RegExp {
  const source = pattern.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')
  return new RegExp(`^${source}$`)
}

export async function startRealUpstream (opts: RealUpstreamOptions = {}): Promise<RealUpstream> {
  const token = opts.token ?? 'real-secret-token'
  const start = opts.remaining ?? 40
  const now = opts.now ?? Date.now
  const buckets = new Map<string, { remaining: number, resetsAt: number }>()
  const requests: RealRequest[] = []
  const routes = new Map<string, RealRoute & { re: RegExp }>()

  const file = (name: string): RealHandler => () => ({ body: readShared(`real/${name}`) })
  const live: Json[] = [...(readShared('real/livescores-2023.json').data as Json[]), liveShootout()]
  const known = (): Json[] => [...live, ...(readShared('real/fixtures-multi-2023.json').data as Json[])]

  function bucket (entity: string): { remaining: number, resetsAt: number } {
    let b = buckets.get(entity)
    if (b === undefined || now() >= b.resetsAt) {
      // The window starts at the first call and resets an hour later (docs/upstream.md, "Rate limits").
      b = { remaining: start, resetsAt: now() + 3_600_000 }
      buckets.set(entity, b)
    }
    return b
  }

  const server: RealUpstream = {
    baseUrl: '',
    origin: '',
    token,
    requests,
    live,
    hits: (path) => requests.filter((r) => r.path === path),
    set (pattern, route) {
      const r = typeof route === 'function' ? { entity: routes.get(pattern)?.entity ?? 'Fixture', handler: route } : route
      routes.set(pattern, { ...r, re: compile(pattern) })
    },
    respond (pattern, reply) { server.set(pattern, () => reply) },
    remaining: (entity = 'Fixture') => buckets.get(entity)?.remaining ?? start,
    setRemaining (entity, remaining) { bucket(entity).remaining = remaining },
    close: async () => {
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    }
  }

  const defaults: Record<string, RealRoute> = {
    '/football/livescores': { entity: 'Fixture', handler: (req) => fixturesReply(live, req) },
    '/football/livescores/inplay': { entity: 'Fixture', handler: (req) => fixturesReply(live.filter((f) => LIVE_STATE_IDS.has(f.state_id)), req) },
    '/football/livescores/latest': { entity: 'Fixture', handler: () => ({ body: noResults() }) },
    '/football/fixtures/latest': { entity: 'Fixture', handler: file('fixtures-latest-2023.json') },
    '/football/fixtures/multi/{ids}': {
      entity: 'Fixture',
      handler: (req) => {
        const ids = new Set((req.params.ids ?? '').split(',').map(Number))
        return fixturesReply(known().filter((f) => ids.has(f.id)), req)
      }
    },
    '/football/fixtures': {
      entity: 'Fixture',
      handler: (req) => {
        const page = Number(req.query.get('page') ?? '1')
        if (page > 1) return { body: noResults() }
        const body = readShared('real/fixtures-all-2023.json')
        body.pagination = { ...body.pagination, next_page: `${server.baseUrl}/football/fixtures?page=2` }
        return { body }
      }
    },
    '/football/fixtures/{fixtureId}': {
      entity: 'Fixture',
      handler: (req) => {
        const id = Number(req.params.fixtureId)
        if (id === RECORDED_FIXTURE_ID) return fixtureWithIncludes(readShared('recorded/fixture-19683241-psg-arsenal-penalties.json').data as Json, param(req, 'include'))
        const fixture = known().find((f) => f.id === id)
        return { body: fixture === undefined ? noResults() : envelope(withIncludes(fixture, param(req, 'include'))) }
      }
    },
    '/football/states': { entity: 'State', handler: file('states-2023.json') }
  }
  for (const [pattern, { entity, rows, one }] of Object.entries(SURFACE)) {
    defaults[pattern] = {
      entity,
      handler: (req, srv) => rows !== undefined ? pagedList(() => rows(req.params))(req, srv) : { body: envelope(one?.(req.params) ?? null) }
    }
  }
  for (const [pattern, route] of Object.entries(defaults)) server.set(pattern, route)

  function answer (path: string, url: URL, headers: IncomingHttpHeaders): { status: number, body: string, headers: Record<string, string>, hangUp?: boolean } {
    // JSON as PHP's json_encode writes it by default: `/` escaped as `\/` (inferred: the captures went through Postman).
    const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
      ({ status, body: typeof body === 'string' ? body : JSON.stringify(body).replaceAll('/', '\\/'), headers: { 'content-type': 'application/json', ...extra } })
    // The most specific route wins: `/football/fixtures/latest` before `/football/fixtures/{id}`.
    let matched: { route: RealRoute, params: Record<string, string> } | undefined
    for (const route of routes.values()) {
      const m = route.re.exec(path)
      const params = { ...m?.groups }
      if (m !== null && (matched === undefined || Object.keys(params).length < Object.keys(matched.params).length)) matched = { route, params }
    }
    const request: RealRequest = { path, query: url.searchParams, headers, params: matched?.params ?? {} }
    requests.push(request)
    if (url.searchParams.get('api_token') !== token) return json(401, { message: 'Unauthenticated.' })
    if (matched === undefined) return json(404, { message: 'Not found.' })
    const reply = matched.route.handler(request, server)
    if (reply.hangUp === true) return { status: 0, body: '', headers: {}, hangUp: true }
    const b = bucket(reply.entity ?? matched.route.entity)
    if (b.remaining <= 0) return json(429, { message: 'Too Many Attempts.' })
    b.remaining--
    const status = reply.status ?? 200
    const body = reply.body
    if (status === 200 && body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const rateLimit = { resets_in_seconds: Math.max(0, Math.ceil((b.resetsAt - now()) / 1000)), remaining: b.remaining, requested_entity: reply.entity ?? matched.route.entity }
      return json(status, { ...body, rate_limit: rateLimit }, reply.headers)
    }
    return json(status, body ?? {}, reply.headers)
  }

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local')
    const out = answer(url.pathname.replace(/^\/v3/, ''), url, req.headers)
    const recorded = requests.at(-1)
    if (recorded !== undefined) recorded.status = out.status
    if (out.hangUp === true) {
      req.socket.destroy()
      return
    }
    res.writeHead(out.status, out.headers)
    res.end(out.body)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  server.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  server.baseUrl = `${server.origin}/v3`
  return server
}
