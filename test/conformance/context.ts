import { expect } from 'vitest'
import { buildUrl, httpGet } from '../helpers/http.ts'
import type { HttpResponse, Query } from '../helpers/http.ts'
import type { ConformanceTarget } from './target.ts'

/** The leagues the contract fixes: the Free plan sees only these (the Danish and Scottish top leagues). */
export const FREE_LEAGUES: readonly number[] = [271, 501]

export interface Res extends HttpResponse {
  /** The URL requested, token redacted; used in failure messages. */
  url: string
}

export interface GetOptions {
  /** Token sent as `api_token`; `null` sends none. @default tokens.pro */
  token?: string | null
  headers?: Record<string, string>
  /** Another instance of the target (limited, burst, failing). @default target.baseUrl */
  baseUrl?: string
}

/** Lazily computed ids discovered through the API, shared by the tests of one suite run. */
export interface Discovery {
  /** League 271 with its current season (and that season's stages). */
  freeLeague: () => Promise<{ league: any, season: any, stages: any[] }>
  /** Fixtures of league 271's current season (first page, 50), plus one chosen fixture (finished if any). */
  freeFixtures: () => Promise<{ fixtures: any[], fixture: any }>
  /** A league outside the Free plan, its current season and one of its fixtures (if any). */
  paidLeague: () => Promise<{ league: any, season: any, fixture: any | undefined }>
  /** The first item of a list endpoint (pro token). */
  first: (path: string) => Promise<any>
}

export interface Ctx {
  target: () => ConformanceTarget
  get: (path: string, query?: Query, opts?: GetOptions) => Promise<Res>
  getUrl: (url: string, opts?: GetOptions) => Promise<Res>
  discover: Discovery
}

function redact (url: string): string {
  return url.replace(/api_token=[^&]*/g, 'api_token=***')
}

function memo<T> (fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined
  return async () => {
    p ??= fn()
    return await p
  }
}

/** Reads the currentSeason include, whichever casing the target uses (the real API lower-cases include keys). */
export function currentSeasonOf (league: any): any {
  return league?.currentseason ?? league?.currentSeason
}

export function createCtx (getTarget: () => ConformanceTarget): Ctx {
  const getUrl = async (url: string, opts: GetOptions = {}): Promise<Res> => {
    const target = getTarget()
    const token = opts.token === undefined ? target.tokens.pro : opts.token
    let full = url
    if (token !== null && !/[?&]api_token=/.test(url)) {
      full = buildUrl(url, '', { api_token: token })
    }
    const res = await httpGet(full, opts.headers)
    return { ...res, url: redact(full) }
  }
  const get = async (path: string, query: Query = {}, opts: GetOptions = {}): Promise<Res> => {
    const base = opts.baseUrl ?? getTarget().baseUrl
    return await getUrl(buildUrl(base, path, query), opts)
  }

  const first = async (path: string): Promise<any> => {
    const res = await get(path)
    expectStatus(res, 200)
    const item = res.body?.data?.[0]
    expect(item, `${path} returned no items to discover ids from`).toBeDefined()
    return item
  }

  const freeLeague = memo(async () => {
    const res = await get('/football/leagues/271', { include: 'currentSeason.stages' })
    expectStatus(res, 200)
    const league = res.body.data
    const season = currentSeasonOf(league)
    expect(season, 'league 271 has a current season').toBeTruthy()
    return { league, season, stages: (season.stages ?? []) as any[] }
  })

  const seasonFixtures = async (seasonId: number): Promise<any[]> => {
    const res = await get(`/football/fixtures/seasons/${seasonId}`, { per_page: 50 })
    if (res.status === 200 && Array.isArray(res.body?.data)) return res.body.data
    // Fall back to a date range, so that one missing path does not hide every fixture test.
    const season = await get(`/football/seasons/${seasonId}`)
    expectStatus(season, 200)
    const from = season.body.data.starting_at as string
    const res2 = await get(`/football/fixtures/between/${from}/${addDays(from, 60)}`, { per_page: 50, filters: `fixtureSeason:${seasonId}` })
    expectStatus(res2, 200)
    return res2.body.data ?? []
  }

  const freeFixtures = memo(async () => {
    const { season } = await freeLeague()
    const fixtures = await seasonFixtures(season.id)
    expect(fixtures.length, 'league 271 current season has fixtures').toBeGreaterThan(0)
    const finished = fixtures.find((f) => [5, 7, 8].includes(f.state_id))
    return { fixtures, fixture: finished ?? fixtures[0] }
  })

  const paidLeague = memo(async () => {
    const res = await get('/football/leagues', { per_page: 50 })
    expectStatus(res, 200)
    const league = (res.body.data as any[]).find((l) => !FREE_LEAGUES.includes(l.id))
    expect(league, 'the target has a league outside the Free plan').toBeDefined()
    const res2 = await get(`/football/leagues/${league.id as number}`, { include: 'currentSeason' })
    expectStatus(res2, 200)
    const season = currentSeasonOf(res2.body.data)
    const fixtures = season === undefined || season === null ? [] : await seasonFixtures(season.id)
    return { league, season, fixture: fixtures[0] }
  })

  return { target: getTarget, get, getUrl, discover: { freeLeague, freeFixtures, paidLeague, first } }
}

// ---------------------------------------------------------------- assertions

export const DATE = /^\d{4}-\d{2}-\d{2}$/
export const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/
export const BILLING_CYCLE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2} UTC$/
export const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/
export const URL_TEXT = /^https?:\/\/\S+$/

export function expectStatus (res: Res, status: number): void {
  expect(res.status, `GET ${res.url} → ${res.status} ${res.text.slice(0, 500)}`).toBe(status)
}

export function isInt (v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v)
}

export function expectInt (v: unknown, what: string): void {
  expect(isInt(v), `${what} should be an integer, got ${JSON.stringify(v)}`).toBe(true)
}

export function expectType (obj: any, field: string, type: 'string' | 'boolean' | 'int' | 'array' | 'object', what = 'record'): void {
  expect(obj, `${what} is an object`).toBeTypeOf('object')
  expect(Object.hasOwn(obj, field), `${what} has field ${field}: ${JSON.stringify(obj).slice(0, 300)}`).toBe(true)
  const v = obj[field]
  const desc = `${what}.${field} should be ${type}, got ${JSON.stringify(v)}`
  if (type === 'int') expect(isInt(v), desc).toBe(true)
  else if (type === 'array') expect(Array.isArray(v), desc).toBe(true)
  else if (type === 'object') expect(v !== null && typeof v === 'object' && !Array.isArray(v), desc).toBe(true)
  else expect(typeof v, desc).toBe(type)
}

export function expectMatch (obj: any, field: string, re: RegExp, what = 'record'): void {
  expectType(obj, field, 'string', what)
  expect(obj[field], `${what}.${field} format`).toMatch(re)
}

/** The list of a list response: `data` as an array, or none at all with a "no results" message (as an empty livescores/latest answers). */
export function listOf (res: Res): any[] {
  const body = res.body
  if (Array.isArray(body?.data)) return body.data
  expect(body?.data, `${res.url}: data should be an array: ${res.text.slice(0, 300)}`).toBeUndefined()
  expect(typeof body?.message, `${res.url}: without data, a "no results" message`).toBe('string')
  return []
}

export function ids (items: any[]): number[] {
  return items.map((i) => i.id as number)
}

/** A 400 body: message, errors {param: [string]}, and no rate_limit (validation errors carry none). */
export function expect400 (res: Res, param?: string): void {
  expectStatus(res, 400)
  const body = res.body
  expect(typeof body?.message, '400 body has a message string').toBe('string')
  expect(body?.errors, '400 body has an errors object').toBeTypeOf('object')
  expect(Array.isArray(body.errors), 'errors is an object, not an array').toBe(false)
  for (const [key, list] of Object.entries(body.errors as Record<string, unknown>)) {
    expect(Array.isArray(list), `errors.${key} is an array`).toBe(true)
    for (const m of list as unknown[]) expect(typeof m, `errors.${key}[] are strings`).toBe('string')
  }
  if (param !== undefined) {
    expect(Object.keys(body.errors), `errors names the parameter ${param}`).toContain(param)
  }
  expect(body, 'a validation error carries no rate_limit (7.2)').not.toHaveProperty('rate_limit')
}

export function expectRateLimit (res: Res): { remaining: number, resets: number, entity: string } {
  const rl = res.body?.rate_limit
  expect(rl, `${res.url} carries rate_limit`).toBeTypeOf('object')
  expectType(rl, 'resets_in_seconds', 'int', 'rate_limit')
  expectType(rl, 'remaining', 'int', 'rate_limit')
  expectType(rl, 'requested_entity', 'string', 'rate_limit')
  return { remaining: rl.remaining, resets: rl.resets_in_seconds, entity: rl.requested_entity }
}

export function addDays (date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** `YYYY-MM-DD HH:MM:SS` of an epoch-seconds instant in an IANA zone. */
export function formatInZone (epochSeconds: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23'
  }).formatToParts(new Date(epochSeconds * 1000))
  const p = (t: string): string => parts.find((x) => x.type === t)?.value ?? '??'
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')}`
}
