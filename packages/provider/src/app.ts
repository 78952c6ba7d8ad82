/**
 * The embedded provider's HTTP layer: one catch-all route under `/v3` that runs every request through the
 * same steps as the upstream (docs/upstream.md): authenticate (401), find the endpoint (404), validate the
 * query (400), check the plan (403), resolve the data, charge the entity's hourly bucket (429) and wrap it in
 * the envelope.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import { matchEndpoint, parseQuery } from '@touchline/upstream-contract/query'
import { frameworkErrorBody } from '@touchline/upstream-contract/query'
import { presentedToken } from '@touchline/upstream-contract/auth'
import { authenticate } from './auth.ts'
import { internalError, pathNotFound, tooManyRequests, type ErrorReply } from './error-replies.ts'
import type { Pagination } from '@touchline/upstream-contract/envelope'
import { rateLimitBody, rateLimitHeaders } from '@touchline/upstream-contract/error-bodies'
import { subscription } from './envelope.ts'
import type { Plan, PlanName, TokenRecord } from './plans.ts'
import { HourlyWindows } from '@touchline/upstream-contract/hourly-window'
import { runHandler, type HandlerContext } from './handlers.ts'
import { featureError } from './access.ts'
import { renderAll, type RenderContext } from './render.ts'
import type { Rec } from './records.ts'
import type { World } from './world.ts'
import type { Faults } from './faults.ts'
import { CursorCodec, pageOf } from './paging.ts'

export interface ProviderAppOptions {
  world: World
  tokens: readonly TokenRecord[]
  now: () => number
  hourlyLimits?: Partial<Record<PlanName, number>>
  burstBuffer: number
  faults?: Faults
  logger?: Logger | false
  /**
   * The provider's own origin for `next_page` links, once it listens. Links are never built from the
   * request's Host header, which a client controls. @default the Host header, for in-process `inject` only
   */
  publicOrigin?: () => string | undefined
  /** Signs pagination cursors (paging.ts). @default random, so cursors last as long as the process */
  cursorSecret?: string
}

/** Endpoints whose empty answer is the "No result(s)" message without `data` (the `latest` feeds). */
const EMPTY_AS_MESSAGE: ReadonlySet<string> = new Set(['livescores.latest', 'fixtures.latest', 'odds.inplay.latest', 'odds.preMatch.latest'])
const NO_RESULTS = "No result(s) found matching your request. Either the query did not return any results or you don't have access to it via your current subscription."

export function buildProviderApp (opts: ProviderAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger === false || opts.logger === undefined ? undefined : opts.logger,
    routerOptions: { maxParamLength: 2000 },
    frameworkErrors: (_err, _req, reply) => { (reply as unknown as FastifyReply).code(400).send(frameworkErrorBody()) }
  }) as unknown as FastifyInstance
  const tokens = new Map(opts.tokens.map((t) => [t.token, t]))
  const limiter = new HourlyWindows()
  const planOf = (plan: Plan): Plan => ({ ...plan, hourlyLimit: opts.hourlyLimits?.[plan.name] ?? plan.hourlyLimit })
  const send = (reply: FastifyReply, r: ErrorReply): FastifyReply => reply.code(r.status).headers(r.headers ?? {}).send(r.body)
  const cursors = new CursorCodec(opts.cursorSecret)

  app.get('/healthz', async () => ({ status: 'ok' }))

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler: async (req, reply) => {
      const fault = await opts.faults?.before(req.url)
      if (fault === 'hang') return reply.hijack()
      if (fault !== undefined) return send(reply, fault)
      const result = serve(req, tokens, limiter, planOf, cursors, opts)
      return send(reply, result)
    }
  })

  app.setErrorHandler((err, req, reply) => {
    const reply500 = internalError()
    req.log.error({ err, errorId: reply500.body.error_id }, 'provider request failed')
    return send(reply, reply500)
  })
  return app
}

type LimitOf = (plan: Plan) => Plan

function serve (req: FastifyRequest, tokens: ReadonlyMap<string, TokenRecord>, limiter: HourlyWindows, planOf: LimitOf, cursors: CursorCodec, opts: ProviderAppOptions): ErrorReply {
  const url = new URL(req.url, 'http://provider.local')
  const query = req.query as Record<string, string | string[] | undefined>
  if (!url.pathname.startsWith('/v3/')) return pathNotFound(url.pathname)
  const caller = authenticate(presentedToken(query, req.headers.authorization), tokens, planOf)
  if ('status' in caller) return caller
  const match = matchEndpoint(url.pathname.slice(3))
  if (match === undefined) return pathNotFound(url.pathname)
  const parsed = parseQuery(match.endpoint, query)
  if (!parsed.ok) return { status: 400, body: parsed.error.body }
  const { endpoint } = match
  const denied = featureError(caller.plan, endpoint, parsed.query.includes)
  if (denied !== undefined) return denied

  const now = opts.now()
  const ctx: HandlerContext = { world: opts.world, caller, params: match.params, query: parsed.query, now, endpoint }
  const result = runHandler(ctx)
  if ('status' in result) return result
  let rows: readonly Rec[] = []
  let pagination: Pagination | undefined
  if (result.kind === 'many') {
    rows = parsed.query.order === 'desc' ? [...result.records].reverse() : result.records
    if (endpoint.mode === 'list') {
      const page = pageOf(rows, {
        endpointId: endpoint.id,
        params: match.params,
        query: parsed.query,
        sortKey: endpoint.kind === 'fixture' ? (r: Rec) => opts.world.kickoff(r, now) : (r: Rec) => r.id,
        link: (next) => pageUrl(req, url, next, opts.publicOrigin?.())
      }, cursors)
      // A cursor that is not this provider's is a validation error: it costs no call.
      if ('status' in page) return page
      rows = page.rows
      pagination = page.pagination
    }
  }

  const charge = limiter.take(caller.token, endpoint.entity, caller.plan.hourlyLimit, now, caller.plan.burst ? opts.burstBuffer : 0)
  if (!charge.allowed) return tooManyRequests(endpoint.entity, charge.state.limit, charge.state.resetsInSeconds)
  const headers = rateLimitHeaders(charge.state)
  const envelope: Record<string, unknown> = {}
  const render: RenderContext = { world: opts.world, caller, query: parsed.query, now }

  if (result.kind === 'usage') {
    envelope.data = limiter.usage(caller.token, caller.plan.hourlyLimit, now).map(result.format)
  } else if (result.kind === 'one') {
    envelope.data = renderAll(endpoint.kind, [result.record], render)[0]
  } else {
    envelope.data = renderAll(endpoint.kind, rows, render)
    if (pagination !== undefined) envelope.pagination = pagination
  }
  // The real API answers an empty livescores/latest with 200, a message and no `data` (docs/upstream.md, "Livescores"),
  // and so, touchline assumes, the odds feeds' latest paths (docs/upstream.md, "Odds").
  if (EMPTY_AS_MESSAGE.has(endpoint.id) && Array.isArray(envelope.data) && envelope.data.length === 0) {
    delete envelope.data
    envelope.message = NO_RESULTS
  }
  envelope.subscription = subscription(caller.plan, now)
  envelope.rate_limit = rateLimitBody(charge.state)
  envelope.timezone = parsed.query.timezone
  return { status: 200, body: envelope, headers }
}

/**
 * Another page's URL keeps every parameter but the token, which a link must never carry: the next page
 * number, or (when the client walks by cursor) the next cursor in place of the old one.
 */
function pageUrl (req: FastifyRequest, url: URL, next: { page: number } | { cursor: string }, origin: string | undefined): string {
  const link = new URL(url.pathname + url.search, origin ?? `${req.protocol}://${req.host}`)
  link.searchParams.delete('api_token')
  if ('page' in next) {
    link.searchParams.set('page', String(next.page))
  } else {
    link.searchParams.delete('page')
    link.searchParams.set('cursor', next.cursor)
  }
  return link.toString()
}
