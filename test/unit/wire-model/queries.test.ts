/**
 * The `/v1` routes' parameters and the OpenAPI document's say the same thing: both come from the schemas
 * of src/wire-model/queries.ts. For every documented parameter of every operation, each of a spread of
 * values is tried both ways: whatever the route's schema takes, the document takes too, and whatever the
 * document refuses, the route refuses (what only parsing can check, such as at most 1000 ids, may be
 * refused by the route alone, and is said in the parameter's description).
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { openApiDocument } from '../../../src/wire-model/openapi.ts'
import { ChangesQuery, DaysQuery, FilterQuery, PushEndpointQuery, queryOf, SseQuery, StandingsParams, WebhookParams } from '../../../src/wire-model/queries.ts'

const doc = openApiDocument()
const ajv = new Ajv2020({ strict: false })
addFormats.default(ajv)
ajv.addSchema(doc, 'openapi.json')

/** The schema each operation's route parses its parameters with. */
const ROUTES: Array<[path: string, method: string, schema: z.ZodType]> = [
  ['/v1/changes', 'get', ChangesQuery],
  ['/v1/sse', 'get', SseQuery],
  ['/v1/fixtures/live', 'get', FilterQuery],
  ['/v1/fixtures', 'get', DaysQuery],
  ['/v1/standings/{league}', 'get', StandingsParams],
  ['/v1/webhooks/{id}/resume', 'post', WebhookParams],
  ['/v1/push/subscriptions', 'get', PushEndpointQuery],
  ['/v1/push/subscriptions', 'delete', PushEndpointQuery]
]

/** Values a client might send, valid for one parameter or another, and invalid for most. */
const VALUES = [
  '', '0', '1', '7', '-1', '1.5', '1e3', '1.0', '01', '999', '1000', '1001', '10000', '10001', '9007199254740993',
  '1,2', '1,,2', '1,2,', ' 1', '*', '*,1', 'abc', 'true', 'false', 'yes', 'off', 'TRUE', 'maybe',
  'full', 'delta', 'xml', 'score_changed', 'score_changed,odds_changed', 'Score_Changed', 'no_such_kind',
  '2026-12-07', '2026-12-07,2026-12-08', '2026-13-45', '07/12/2026',
  'UTC', 'Europe/London', 'Mars/Olympus_Mons', 'x'.repeat(129), 'https://push.example/send/abc', 'x'.repeat(2049)
]

/** A request that is valid apart from the parameter tried (`/v1/fixtures` needs a day). */
function base (path: string, name: string): Record<string, string> {
  if (path !== '/v1/fixtures' || name === 'date' || name === 'from') return {}
  return name === 'to' ? { from: '2026-12-06' } : { date: '2026-12-07' }
}

interface DocParameter { name: string, in: string }
const pointer = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1')

describe('the /v1 parameters in docs/openapi.json and in the routes', () => {
  for (const [path, method, schema] of ROUTES) {
    const operation = (doc.paths as Record<string, Record<string, { parameters?: DocParameter[] }>>)[path]?.[method]
    const params = (operation?.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path')

    it(`${method.toUpperCase()} ${path}: the document names every parameter the route reads`, () => {
      const shape = ('shape' in schema ? schema.shape : (schema as unknown as { in: { shape: object } }).in.shape) as object
      expect(params.map((p) => p.name).sort()).toEqual(Object.keys(shape).sort())
    })

    it(`${method.toUpperCase()} ${path}: what the route takes the document takes, and what the document refuses the route refuses`, () => {
      for (const [i, param] of (operation?.parameters ?? []).entries()) {
        if (param.in !== 'query' && param.in !== 'path') continue
        const documented = ajv.compile({ $ref: `openapi.json#/paths/${pointer(path)}/${method}/parameters/${i}/schema` })
        // A parameter the document types as an integer is one when its text is an integer literal.
        const integer = (param as { schema?: { type?: string } }).schema?.type === 'integer'
        const asSent = (v: string): unknown => integer && /^(0|-?[1-9]\d*)$/.test(v) ? Number(v) : v
        let taken = 0
        let refused = 0
        for (const value of VALUES) {
          const byRoute = schema.safeParse(queryOf({ ...base(path, param.name), [param.name]: value })).success
          const byDoc = documented(asSent(value))
          if (byRoute) expect(byDoc, `${param.name}=${value}: the route takes it, the document refuses it`).toBe(true)
          if (byRoute) taken++
          if (!byDoc) refused++
        }
        expect(taken, `${param.name}: some value is taken`).toBeGreaterThan(0)
        if (param.name !== 'since' && param.name !== 'id') expect(refused, `${param.name}: some value is refused`).toBeGreaterThan(0)
      }
    })
  }

  it('a repeated list parameter is one list; another repeated parameter is refused, as the document says it is a single value', () => {
    expect(FilterQuery.parse(queryOf({ leagues: ['271', '501'], fixtures: ['1', '2,3'] }))).toEqual({ leagues: [271, 501], fixtures: [1, 2, 3] })
    expect(ChangesQuery.safeParse(queryOf({ since: ['a', 'b'] })).success).toBe(false)
    expect(PushEndpointQuery.safeParse(queryOf({ endpoint: ['https://a.example/1', 'https://a.example/2'] })).success).toBe(false)
  })
})
