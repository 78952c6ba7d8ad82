/**
 * The upstream's query rules (docs/upstream.md, "select, filters and other options"), as one pure validator shared by the embedded provider and the REST
 * passthrough (which must reject exactly what the upstream rejects, before spending any budget).
 */
import { ENDPOINTS, LIST_PARAMS, SINGLE_PARAMS, type Endpoint, type FilterSpec } from './endpoints.ts'
import { RELATIONS, SELECTABLE, SELECT_ALIASES, type Kind, type Feature } from './resources.ts'

export interface IncludeNode {
  /** Include name as requested, e.g. `currentSeason`. */
  name: string
  /** Response key: the real API lower-cases camelCase includes (docs/upstream.md, "Known quirks"). */
  key: string
  target: Kind
  many: boolean
  feature?: Feature
  /** Field selection `include=events:minute,player_name`, or null for all fields. */
  fields: string[] | null
  children: IncludeNode[]
}

export interface ParsedFilter {
  spec: FilterSpec
  values: string[]
}

export interface ParsedQuery {
  includes: IncludeNode[]
  select: string[] | null
  /** Keyed by lower-cased filter name. */
  filters: Map<string, ParsedFilter>
  order: 'asc' | 'desc'
  perPage: number
  page: number
  /**
   * The `cursor` of cursor pagination (docs/upstream.md, "Pagination"), as given; null when paging by `page`. Opaque here:
   * the provider reads its own, the passthrough forwards the upstream's.
   */
  cursor: string | null
  timezone: string
  populate: boolean
}

/** A request the upstream rejects; `body` is its 400 body (`message`, `errors`) with the real API's `code`. */
export interface QueryError {
  status: 400
  code: number
  body: { message: string, code: number, errors: Record<string, string[]> }
}

export type QueryResult = { ok: true, query: ParsedQuery } | { ok: false, error: QueryError }

const PER_PAGE_DEFAULT = 25
export const PER_PAGE_MAX = 50
export const PER_PAGE_POPULATE_MAX = 1000
/** Offset paging ends here: `(page - 1) * per_page` above it is refused since 2026-06-23 (docs/upstream.md, "Pagination"). */
const OFFSET_ROWS_MAX = 20_000
const CURSOR_MAX_LENGTH = 2048

/**
 * The upstream's own numeric error codes, sent as `code` in its 400 bodies (docs/upstream.md, "Errors"); not
 * the gateway's TL_ERR_* codes, which are src/errors.ts.
 */
export const UpstreamInternalCode = {
  INCLUDE_NOT_FOUND: 5001,
  PAGINATION_LIMIT: 5003,
  INVALID_PARAMETER: 5006,
  INCLUDE_DEPTH: 5008,
  INAPPLICABLE_FILTER: 5010
} as const

/** The upstream's 400 body (`message`, `errors` by parameter) with the real API's internal `code`. */
export function badRequestBody (param: string, message: string, code: number = UpstreamInternalCode.INVALID_PARAMETER): QueryError['body'] {
  return { message, code, errors: { [param]: [message] } }
}

class Rejection extends Error {
  constructor (readonly param: string, message: string, readonly code: number = UpstreamInternalCode.INVALID_PARAMETER) {
    super(message)
  }
}

/** The integer values of one parsed filter (by lower-cased name), or undefined when it was not given. */
/**
 * fastify's own errors for a request it cannot route (a malformed URL, bad percent-encoding) echo the
 * URL, and with it a caller's `api_token`. Answered instead with the upstream's 400 shape and no URL.
 */
export function frameworkErrorBody (): QueryError['body'] {
  return badRequestBody('url', 'The request URL is malformed (invalid percent-encoding or characters).')
}

export function filterIds (filters: ReadonlyMap<string, ParsedFilter>, name: string): Set<number> | undefined {
  const f = filters.get(name)
  return f === undefined ? undefined : new Set(f.values.map(Number))
}

/** Percent-encodes a query value but keeps `;` `,` `:` literal, as the API's docs write includes and filters. */
export function encodeQueryValue (value: string): string {
  return encodeURIComponent(value).replace(/%3B/gi, ';').replace(/%2C/gi, ',').replace(/%3A/gi, ':')
}

const INTEGER = /^[0-9]+$/
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/
const VALID_ZONES = new Map<string, boolean>()

/** True for a zone name `Intl` knows (IANA names such as Europe/London, and UTC). */
export function isValidTimezone (zone: string): boolean {
  let valid = VALID_ZONES.get(zone)
  if (valid === undefined) {
    try {
      // eslint-disable-next-line no-new
      new Intl.DateTimeFormat('en-GB', { timeZone: zone })
      valid = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)
    } catch {
      valid = false
    }
    if (VALID_ZONES.size < 1000) VALID_ZONES.set(zone, valid)
  }
  return valid
}

function parseIncludes (raw: string, root: Kind, maxDepth: number, populate: boolean): IncludeNode[] {
  if (raw === '' || populate) return []
  if (/\s/.test(raw)) throw new Rejection('include', 'The include parameter must not contain spaces.')
  const roots: IncludeNode[] = []
  for (const token of raw.split(';')) {
    const colon = token.indexOf(':')
    const path = colon === -1 ? token : token.slice(0, colon)
    const fieldList = colon === -1 ? null : token.slice(colon + 1)
    if (path.includes(',')) throw new Rejection('include', 'Includes are separated by semicolons; a comma is not allowed.')
    const names = path.split('.')
    if (names.some((n) => n === '')) throw new Rejection('include', `The include "${token}" is malformed.`)
    if (names.length > maxDepth) {
      throw new Rejection('include', `The include "${path}" is nested ${names.length} levels deep; this endpoint allows ${maxDepth}.`, UpstreamInternalCode.INCLUDE_DEPTH)
    }
    const fields = fieldList === null ? null : fieldList.split(',')
    if (fields !== null && fields.some((x) => !FIELD.test(x))) throw new Rejection('include', `The field list of "${path}" is malformed.`)
    insertInclude(roots, names, root, fields)
  }
  return roots
}

function insertInclude (siblings: IncludeNode[], names: string[], kind: Kind, fields: string[] | null): void {
  const [name, ...rest] = names
  if (name === undefined) return
  const relation = RELATIONS[kind][name]
  if (relation === undefined) {
    throw new Rejection('include', `The requested include "${name}" does not exist on ${kind}.`, UpstreamInternalCode.INCLUDE_NOT_FOUND)
  }
  let node = siblings.find((n) => n.name === name)
  if (node === undefined) {
    node = { name, key: name.toLowerCase(), target: relation.target, many: relation.many, fields: null, children: [], ...(relation.feature ? { feature: relation.feature } : {}) }
    siblings.push(node)
  }
  if (rest.length === 0) {
    if (fields !== null) node.fields = fields
  } else {
    insertInclude(node.children, rest, relation.target, fields)
  }
}

/**
 * Fields of `select`: checked against the kind's selectable fields where the catalogue lists them; for the
 * other kinds only their form is checked, since the real API may accept them.
 */
function parseSelect (raw: string | undefined, kind: Kind): string[] | null {
  if (raw === undefined || raw === '') return null
  const allowed = SELECTABLE[kind]
  const fields: string[] = []
  for (const name of raw.split(',')) {
    if (allowed === undefined ? !FIELD.test(name) : !allowed.includes(name)) {
      throw new Rejection('select', `The select field "${name}" does not exist on this resource or is not selectable.`)
    }
    fields.push(SELECT_ALIASES[name] ?? name)
  }
  return fields
}

function parseFilters (raw: string | undefined, endpoint: Endpoint): Map<string, ParsedFilter> {
  const out = new Map<string, ParsedFilter>()
  if (raw === undefined || raw === '') return out
  for (const part of raw.split(';')) {
    const colon = part.indexOf(':')
    const name = colon === -1 ? part : part.slice(0, colon)
    const spec = endpoint.filters.find((s) => s.name.toLowerCase() === name.toLowerCase())
    if (name === '' || !/^[A-Za-z]+$/.test(name)) throw new Rejection('filters', `The filter "${part}" is malformed; use name:value1,value2;name2:value3.`)
    if (spec === undefined) throw new Rejection('filters', `The filter "${name}" cannot be used on this endpoint.`, UpstreamInternalCode.INAPPLICABLE_FILTER)
    const values = colon === -1 ? [] : part.slice(colon + 1).split(',')
    checkFilterValues(spec, values, part)
    out.set(spec.name.toLowerCase(), { spec, values })
  }
  return out
}

function checkFilterValues (spec: FilterSpec, values: string[], part: string): void {
  const malformed = (): never => { throw new Rejection('filters', `The value of filter "${spec.name}" is malformed: "${part}".`) }
  if (spec.value === 'flag') {
    if (values.length > 0 && !(values.length === 1 && values[0] === '')) malformed()
    return
  }
  if (values.length === 0 || values.some((v) => v === '')) malformed()
  if (spec.value === 'id' && values.length !== 1) malformed()
  if ((spec.value === 'ids' || spec.value === 'id') && values.some((v) => !INTEGER.test(v))) malformed()
  // The real API caps id lists at 50 values (docs/upstream.md, "select, filters and other options").
  if (values.length > 50) throw new Rejection('filters', `The filter "${spec.name}" takes at most 50 values.`)
}

function parseInteger (raw: string | undefined, param: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback
  if (!INTEGER.test(raw)) throw new Rejection(param, `The ${param} parameter must be a whole number.`)
  const value = Number(raw)
  if (value < min || value > max) throw new Rejection(param, `The ${param} parameter must be between ${min} and ${max}.`)
  return value
}

/**
 * Validates the query of a request to `endpoint`. `query` holds the raw parameters as an HTTP layer parses
 * them, a repeated parameter as an array.
 */
export function parseQuery (endpoint: Endpoint, query: Record<string, string | string[] | undefined>): QueryResult {
  try {
    return { ok: true, query: validate(endpoint, query) }
  } catch (err) {
    if (!(err instanceof Rejection)) throw err
    return { ok: false, error: { status: 400, code: err.code, body: badRequestBody(err.param, err.message, err.code) } }
  }
}

/**
 * One value per parameter: a repeated parameter (`include=a&include=b`, which real clients send) counts with
 * its last value, as the real API's PHP/Laravel query parsing takes it. Inferred from the framework: the
 * docs do not say. The provider and the passthrough both read parameters through this, so they agree.
 */
export function singleValues (query: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(query)) {
    const last = Array.isArray(value) ? value.at(-1) : value
    if (last !== undefined) out[name] = last
  }
  return out
}

function validate (endpoint: Endpoint, query: Record<string, string | string[] | undefined>): ParsedQuery {
  const known = endpoint.mode === 'single' ? SINGLE_PARAMS : LIST_PARAMS
  const raw = singleValues(query)
  for (const name of Object.keys(raw)) {
    if (!known.has(name)) throw new Rejection(name, `The ${name} parameter is not allowed on this endpoint.`)
  }
  const filters = parseFilters(raw.filters, endpoint)
  const populate = filters.has('populate')
  const timezone = raw.timezone ?? 'UTC'
  if (!isValidTimezone(timezone)) throw new Rejection('timezone', `The timezone "${timezone}" is not a valid time zone name.`)
  const order = raw.order ?? 'asc'
  if (order !== 'asc' && order !== 'desc') throw new Rejection('order', 'The order parameter must be asc or desc.')
  const perPageMax = populate ? PER_PAGE_POPULATE_MAX : PER_PAGE_MAX
  const perPage = parseInteger(raw.per_page, 'per_page', 1, perPageMax, PER_PAGE_DEFAULT)
  const page = parseInteger(raw.page, 'page', 1, Number.MAX_SAFE_INTEGER, 1)
  const cursor = parseCursor(raw)
  if (cursor === null && (page - 1) * perPage > OFFSET_ROWS_MAX) {
    throw new Rejection('page', `Offset pagination stops after ${OFFSET_ROWS_MAX} rows; page ${page} at ${perPage} per page starts beyond them. Use cursor pagination: pass the next_cursor of the previous page as cursor.`, UpstreamInternalCode.PAGINATION_LIMIT)
  }
  return {
    includes: parseIncludes(raw.include ?? '', endpoint.kind, endpoint.maxDepth, populate),
    select: parseSelect(raw.select, endpoint.kind),
    filters,
    order,
    perPage,
    page,
    cursor,
    timezone,
    populate
  }
}

/**
 * `cursor`: opaque, so only its form is checked here. It carries the page size of the walk it continues, so
 * `per_page` beside it is refused, as the real API refuses it (docs/upstream.md, "Pagination"); `page` beside it is
 * ignored (inferred). An empty `cursor=` counts as none.
 */
function parseCursor (raw: Readonly<Record<string, string>>): string | null {
  const cursor = raw.cursor
  if (cursor === undefined || cursor === '') return null
  if (raw.per_page !== undefined) throw new Rejection('cursor', 'The per_page parameter cannot be combined with cursor; the cursor keeps the page size of the first page.')
  if (cursor.length > CURSOR_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(cursor)) throw new Rejection('cursor', 'The cursor is malformed.')
  return cursor
}

interface CompiledRoute { endpoint: Endpoint, segments: string[] }
const COMPILED: CompiledRoute[] = ENDPOINTS.map((endpoint) => ({ endpoint, segments: endpoint.path.split('/').slice(1) }))

export interface RouteMatch {
  endpoint: Endpoint
  params: Record<string, string>
}

/**
 * Finds the endpoint of a path relative to the base URL (`/football/fixtures/1`). Parameters named `id` or
 * ending in `Id` match digits only, so `/football/fixtures/abc` is a 404 as on the real API.
 */
export function matchEndpoint (path: string): RouteMatch | undefined {
  const parts = path.split('/').slice(1)
  if (parts.at(-1) === '') parts.pop()
  for (const { endpoint, segments } of COMPILED) {
    if (segments.length !== parts.length) continue
    const params: Record<string, string> = {}
    let ok = true
    for (let i = 0; i < segments.length && ok; i++) {
      const seg = segments[i] as string
      const part = parts[i] as string
      if (seg.startsWith(':')) {
        const name = seg.slice(1)
        const value = safeDecode(part)
        ok = value !== undefined && value !== '' && (!isIdParam(name) || INTEGER.test(value)) && (name !== 'ids' || /^[0-9]+(,[0-9]+)*$/.test(value))
        if (ok) params[name] = value as string
      } else {
        ok = seg === part
      }
    }
    if (ok) return { endpoint, params }
  }
  return undefined
}

const isIdParam = (name: string): boolean => name === 'id' || name.endsWith('Id') || /^team[12]$/.test(name)

function safeDecode (part: string): string | undefined {
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}
