/**
 * The upstream's 400 rules (docs/upstream.md, "select, filters and other options") for a request the catalogue cannot validate in full: a path it does not
 * know, or an include, select or filter name it does not know. Only the syntax is judged here (parameter
 * names, punctuation, spaces, nesting depth, ranges, time zone), so that a malformed request still costs
 * nothing upstream while a well-formed one with a new name reaches the API that may know it.
 */
import { badRequestBody, UpstreamInternalCode, isValidTimezone, PER_PAGE_MAX, PER_PAGE_POPULATE_MAX, type QueryError } from '@touchline/upstream-contract/query'

/** Every parameter the real API documents; anything else is the upstream's "unknown parameter". */
export const DOCUMENTED_PARAMS: ReadonlySet<string> = new Set([
  'api_token', 'include', 'select', 'filters', 'order', 'per_page', 'page', 'cursor', 'timezone', 'locale', 'sortBy'
])

/** The deepest include nesting of any endpoint (cities), for a path the catalogue does not know. */
export const UNKNOWN_PATH_MAX_DEPTH = 4

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/
const FILTER_NAME = /^[A-Za-z]+$/
const INTEGER = /^[0-9]+$/
/** The real API caps a filter's value list at 50. */
const MAX_FILTER_VALUES = 50

type Body = QueryError['body']
type Query = Readonly<Record<string, string | undefined>>

export interface SyntaxRules {
  /** Names accepted on this path. */
  params: ReadonlySet<string>
  maxDepth: number
}

const bad = (param: string, message: string, code?: number): Body => badRequestBody(param, message, code)

function includeError (raw: string, maxDepth: number): Body | undefined {
  if (raw === '') return undefined
  if (/\s/.test(raw)) return bad('include', 'The include parameter must not contain spaces.')
  for (const token of raw.split(';')) {
    const colon = token.indexOf(':')
    const path = colon === -1 ? token : token.slice(0, colon)
    if (path.includes(',')) return bad('include', 'Includes are separated by semicolons; a comma is not allowed.')
    const names = path.split('.')
    if (!names.every((n) => NAME.test(n))) return bad('include', `The include "${token}" is malformed.`)
    if (names.length > maxDepth) {
      return bad('include', `The include "${path}" is nested ${names.length} levels deep; this endpoint allows ${maxDepth}.`, UpstreamInternalCode.INCLUDE_DEPTH)
    }
    if (colon !== -1 && !token.slice(colon + 1).split(',').every((f) => NAME.test(f))) return bad('include', `The field list of "${path}" is malformed.`)
  }
  return undefined
}

function filtersError (raw: string): Body | undefined {
  if (raw === '') return undefined
  for (const part of raw.split(';')) {
    const colon = part.indexOf(':')
    const name = colon === -1 ? part : part.slice(0, colon)
    if (!FILTER_NAME.test(name)) return bad('filters', `The filter "${part}" is malformed; use name:value1,value2;name2:value3.`)
    if (colon === -1) continue
    const values = part.slice(colon + 1).split(',')
    if (values.some((v) => v === '' || /\s/.test(v))) return bad('filters', `The value of filter "${name}" is malformed: "${part}".`)
    if (values.length > MAX_FILTER_VALUES) return bad('filters', `The filter "${name}" takes at most ${MAX_FILTER_VALUES} values.`)
  }
  return undefined
}

function integerError (raw: string | undefined, param: string, min: number, max: number): Body | undefined {
  if (raw === undefined) return undefined
  if (!INTEGER.test(raw)) return bad(param, `The ${param} parameter must be a whole number.`)
  const value = Number(raw)
  return value < min || value > max ? bad(param, `The ${param} parameter must be between ${min} and ${max}.`) : undefined
}

/** The upstream's 400 body for the first syntax error of `query`, or undefined when it is well formed. */
export function syntaxError (query: Query, rules: SyntaxRules): Body | undefined {
  for (const name of Object.keys(query)) {
    if (!rules.params.has(name)) return bad(name, `The ${name} parameter is not allowed on this endpoint.`)
  }
  const populate = (query.filters ?? '').split(';').some((p) => p.toLowerCase() === 'populate')
  const timezone = query.timezone
  if (timezone !== undefined && !isValidTimezone(timezone)) return bad('timezone', `The timezone "${timezone}" is not a valid time zone name.`)
  if (query.order !== undefined && query.order !== 'asc' && query.order !== 'desc') return bad('order', 'The order parameter must be asc or desc.')
  if (query.select !== undefined && query.select !== '' && !query.select.split(',').every((f) => NAME.test(f))) {
    return bad('select', 'The select parameter is a comma-separated list of field names.')
  }
  return filtersError(query.filters ?? '') ??
    includeError(query.include ?? '', rules.maxDepth) ??
    integerError(query.per_page, 'per_page', 1, populate ? PER_PAGE_POPULATE_MAX : PER_PAGE_MAX) ??
    integerError(query.page, 'page', 1, Number.MAX_SAFE_INTEGER) ??
    cursorError(query)
}

/** `cursor` beside `per_page` is refused by the real API (400, docs/upstream.md "Pagination"). */
function cursorError (query: Query): Body | undefined {
  if (query.cursor === undefined || query.per_page === undefined) return undefined
  return bad('per_page', 'The per_page parameter cannot be combined with cursor: a cursor keeps the page size of the page it came from.')
}
