/**
 * The HTTP side of the live fan-out, the hub (docs/protocol.md): `GET /v1/changes` (the change log, paged by cursor),
 * `GET /v1/sse` (the same changes as Server-Sent Events, resumable with Last-Event-ID) and
 * `GET /v1/fixtures/live` (the live snapshot). All answered from the store and the hub, never upstream.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { Hub } from '../fanout/hub.ts'
import { DELTA_WITH_KINDS, type Format, type LiveFixture } from '../wire-model/model.ts'
import { ChangesQuery as ChangesParams, DaysQuery, FilterQuery, queryOf, SseQuery as SseParams, StandingsParams, type Filter } from '../wire-model/queries.ts'
import { dayRange } from '../protocol/days.ts'
import { dayAnswer, notModified, pickEncoding } from './day-answer.ts'
import { fixturesOutsideScope, teamsOutsideScope } from '../fanout/scope-check.ts'
import { leagueAllowed, type ClientKey, type KeyRing } from '../client-keys.ts'
import type { Metrics } from '../metrics.ts'
import { isOddsRecord, type LiveStore, type ReadSinceResult } from '../store/types.ts'
import { admitStream, fanOf, httpError, keyOf, unauthorized } from './websocket.ts'
import { claimRefusal } from '../tokens.ts'
import { answerStoreOutages } from './outage.ts'
import { narrowOdds, narrowsTake, readFilter, scopeFilter, takeOf, takeRefusal, type LiveFilter, type NamedTake, type Take } from '../protocol/filter.ts'
import { conflatePage } from '../protocol/conflate.ts'
import { pageFrames } from '../protocol/frames.ts'

export interface FeedRouteDeps {
  store: LiveStore
  hub: Hub
  keys: KeyRing
  metrics: Metrics
}

/** A delta needs every change of its fixture, which kinds or odds filters would drop (see DELTA_WITH_KINDS). */
const deltaWithoutKinds = (q: { format: Format } & NamedTake): boolean => q.format !== 'delta' || !narrowsTake(takeOf(q))
const ChangesQuery = ChangesParams.refine(deltaWithoutKinds, { path: ['format'], message: DELTA_WITH_KINDS })
const SseQuery = SseParams.refine(deltaWithoutKinds, { path: ['format'], message: DELTA_WITH_KINDS })

function parseQuery<T> (schema: z.ZodType<T>, request: FastifyRequest, reply: FastifyReply): T | undefined {
  const parsed = schema.safeParse(queryOf(request.query))
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  httpError(reply, 400, 'invalid_request', `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`)
  return undefined
}

function authenticate (keys: KeyRing, request: FastifyRequest, reply: FastifyReply): ClientKey | undefined {
  const key = keyOf(keys, request, { tokens: true })
  if (key === undefined) unauthorized(request, reply)
  return key
}

/**
 * Whether a token's follow claims (tokens.ts claimRefusal) refuse what the request asks; answers 403 then.
 * No leagues, fixtures, teams or days at all is everything the key may see.
 */
function refusedByClaims (key: ClientKey, q: { leagues?: number[] | '*', fixtures?: number[], teams?: number[], dates?: string[], kinds?: readonly string[] }, reply: FastifyReply): boolean {
  const claimed = claimRefusal(key, {
    all: q.leagues === '*' || (q.leagues === undefined && q.fixtures === undefined && q.teams === undefined && q.dates === undefined),
    leagues: Array.isArray(q.leagues) ? q.leagues : [],
    fixtures: q.fixtures ?? [],
    teams: q.teams ?? [],
    dates: q.dates?.length ?? 0,
    kinds: q.kinds === undefined ? undefined : new Set(q.kinds)
  })
  if (claimed === undefined) return false
  httpError(reply, 403, 'forbidden', claimed)
  return true
}

/**
 * The filter for a request within the key's scope, or undefined after a 403. Without leagues, fixtures and
 * teams, or with `leagues=*`: everything the key may see. Fixtures the store knows to be of other leagues,
 * and teams that play only outside a scoped key's leagues, are refused as a WebSocket subscribe refuses
 * them (see scope-check.ts).
 */
async function scopedFilter (store: LiveStore, key: ClientKey, q: Filter, reply: FastifyReply): Promise<{ filter: LiveFilter | undefined, take: Take } | undefined> {
  const take = takeOf(q)
  const refusal = takeRefusal(take, key)
  if (refusal !== undefined) {
    httpError(reply, 403, 'forbidden', refusal)
    return undefined
  }
  if (refusedByClaims(key, q, reply)) return undefined
  const denied = (Array.isArray(q.leagues) ? q.leagues : []).filter((id) => !leagueAllowed(key, id))
  if (denied.length > 0) {
    httpError(reply, 403, 'forbidden', `leagues outside this key's scope: ${denied.join(',')}`)
    return undefined
  }
  const fixtures = await fixturesOutsideScope(store, key, q.fixtures ?? [])
  if (fixtures.length > 0) {
    httpError(reply, 403, 'forbidden', `fixtures outside this key's scope: ${fixtures.join(',')}`)
    return undefined
  }
  const outside = await teamsOutsideScope(store, key, q.teams ?? [])
  if (outside.length > 0) {
    httpError(reply, 403, 'forbidden', `teams playing only outside this key's scope: ${outside.join(',')}`)
    return undefined
  }
  return { filter: scopeFilter(q, key), take }
}

export function feedRoutes (deps: FeedRouteDeps): FastifyPluginAsync {
  const { store, hub, keys } = deps
  return async (app) => {
    // SSE responses are hijacked, so fastify would wait for them on close: the hub ends them first.
    app.addHook('preClose', async () => { await hub.close() })
    answerStoreOutages(app)

    app.get('/v1/changes', async (request, reply) => {
      const key = authenticate(keys, request, reply)
      if (key === undefined) return reply
      const q = parseQuery(ChangesQuery, request, reply)
      if (q === undefined) return reply
      const scoped = await scopedFilter(store, key, q, reply)
      if (scoped === undefined) return reply
      const page = await store.readSince(q.since, { ...readFilter(scoped.filter, key), limit: q.limit })
      return reply.type(JSON_TYPE).send(changesBody(page, key, scoped.filter, scoped.take, q.format, q.conflate_ms ?? 0))
    })

    app.get('/v1/fixtures/live', async (request, reply) => {
      const key = authenticate(keys, request, reply)
      if (key === undefined) return reply
      const q = parseQuery(FilterQuery, request, reply)
      if (q === undefined) return reply
      const scoped = await scopedFilter(store, key, q, reply)
      if (scoped === undefined) return reply
      // `kinds` narrows changes; a snapshot lists fixtures, so it is accepted and has nothing to narrow here.
      // The hub's shared snapshot: a burst of these requests costs one store read per filter and scope.
      const snap = await hub.liveSnapshot(scoped.filter, key)
      const odds = scoped.take.odds
      if (odds === undefined) return reply.type(JSON_TYPE).send(Buffer.concat([DATA_OPEN, snap.json, OBJECT_CLOSE]))
      // With odds: each listed fixture's odds image, narrowed to the bookmakers and markets asked for.
      const images = (await store.getOdds(snap.ids)).map((image) => narrowOdds(image, odds))
      return reply.type(JSON_TYPE).send(Buffer.concat([DATA_OPEN, snap.json, ODDS_OPEN, Buffer.from(JSON.stringify(images)), OBJECT_CLOSE]))
    })

    app.get('/v1/standings/:league', async (request, reply) => {
      const key = authenticate(keys, request, reply)
      if (key === undefined) return reply
      const parsed = StandingsParams.safeParse(request.params)
      if (!parsed.success) return httpError(reply, 400, 'invalid_request', 'league: expected a positive integer id')
      const { league } = parsed.data
      if (!leagueAllowed(key, league)) return httpError(reply, 403, 'forbidden', `league outside this key's scope: ${league}`)
      const [table] = await store.getStandings([league])
      if (table === undefined) return httpError(reply, 404, 'not_found', `no live table of league ${league}: the gateway reads a league's table while it has a match in play, and keeps the last one`)
      reply.header('cache-control', 'private, no-cache')
      return reply.type(JSON_TYPE).send({ data: table })
    })

    app.get('/v1/fixtures', async (request, reply) => {
      const key = authenticate(keys, request, reply)
      if (key === undefined) return reply
      const q = parseQuery(DaysQuery, request, reply)
      if (q === undefined) return reply
      if (refusedByClaims(key, q, reply)) return reply
      const denied = (Array.isArray(q.leagues) ? q.leagues : []).filter((id) => !leagueAllowed(key, id))
      if (denied.length > 0) return httpError(reply, 403, 'forbidden', `leagues outside this key's scope: ${denied.join(',')}`)
      // The days alone: `all` would add the whole live set, fixtures of other days included.
      const snap = await hub.snapshot({ days: q.dates.map((d) => dayRange(d, q.tz)) }, key)
      const narrow = narrowing(q)
      const answer = dayAnswer(snap, { dates: q.dates, tz: q.tz, ...(narrow !== undefined ? { narrow } : {}) }, JSON.stringify([q.dates, q.tz, q.leagues, q.fixtures, q.teams]))
      reply.header('etag', answer.etag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding')
      if (notModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send()
      const encoding = pickEncoding(request.headers['accept-encoding'])
      const body = await answer.body(encoding)
      if (body.encoding !== 'identity') reply.header('content-encoding', body.encoding)
      return reply.type(JSON_TYPE).send(body.bytes)
    })

    app.get('/v1/sse', async (request, reply) => {
      const key = admitStream(hub, keys, request, reply)
      if (key === undefined) return reply
      const q = parseQuery(SseQuery, request, reply)
      if (q === undefined) return reply
      if (await scopedFilter(store, key, q, reply) === undefined) return reply
      const count = (Array.isArray(q.leagues) ? q.leagues.length : 0) + (q.fixtures?.length ?? 0) + (q.teams?.length ?? 0)
      if (count > hub.limits.maxSubscriptions) {
        return httpError(reply, 400, 'limit_exceeded', `at most ${hub.limits.maxSubscriptions} leagues, fixtures and teams per stream`)
      }
      if (!hub.hasRoom(key)) return httpError(reply, 429, 'too_many_connections', 'too many connections for this key')
      const lastEventId = request.headers['last-event-id']
      const since = typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : q.since
      openStream(reply)
      const sub = { leagues: q.leagues, fixtures: q.fixtures, teams: q.teams, dates: q.dates, tz: q.tz, kinds: q.kinds, odds: q.odds, bookmakers: q.bookmakers, markets: q.markets, standings: q.standings }
      hub.acceptSse(reply.raw, key, { ...withoutUndefined({ ...sub, conflateMs: q.conflate_ms }), since, format: q.format }, request.headers.origin, fanOf(request))
      return reply
    })
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'
const DATA_OPEN = Buffer.from('{"data":')
const ODDS_OPEN = Buffer.from(',"odds":')

/** The day's fixtures of the leagues, fixtures or teams asked for (any matches); undefined when none is named. */
function narrowing (q: { leagues?: number[] | '*', fixtures?: number[], teams?: number[] }): ((f: LiveFixture) => boolean) | undefined {
  const leagues = Array.isArray(q.leagues) ? new Set(q.leagues) : undefined
  if (leagues === undefined && q.fixtures === undefined && q.teams === undefined) return undefined
  const fixtures = new Set(q.fixtures)
  const teams = new Set(q.teams)
  return (f) => leagues?.has(f.league_id) === true || fixtures.has(f.id) || teams.has(f.home.id) || teams.has(f.away.id)
}

/** The object without its undefined fields (the SSE subscription's optional fields stay absent). */
function withoutUndefined<T extends object> (o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}
const OBJECT_CLOSE = Buffer.from('}')

/**
 * The `/v1/changes` body, `{"data":[change...],"cursor","recovered","more"}`: the same change frames as the
 * WebSocket sends (page-frames.ts). Teams and kinds are filtered there, so a page may hold fewer than
 * `limit` changes, or none, while `more` is true; `cursor` still moves past what was filtered out. In
 * `delta` format a fixture's first record of the page is full (the page does not know what the client
 * holds) and its later ones are deltas on it.
 */
function changesBody (page: ReadSinceResult, key: ClientKey, filter: LiveFilter | undefined, take: Take, format: Format, conflateMs: number): string {
  const conflated = take.odds === undefined ? page : conflatePage(page.records, page.json, conflateMs, isOddsRecord)
  const data = pageFrames(conflated, key, filter, take, format)
  return `{"data":[${data.join(',')}],"cursor":${JSON.stringify(page.cursor)},"recovered":${page.recovered},"more":${page.more}}`
}

/** Takes the response over from fastify and writes the event-stream headers. */
function openStream (reply: FastifyReply): void {
  reply.hijack()
  reply.raw.writeHead(200, {
    // Headers set by earlier hooks (CORS, request id) would be lost on a hijacked reply otherwise.
    ...reply.getHeaders() as Record<string, string | string[]>,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx buffers responses by default, which would hold events back.
    'x-accel-buffering': 'no'
  })
  // How long EventSource waits before reconnecting after the stream drops.
  reply.raw.write('retry: 2000\n\n')
}
