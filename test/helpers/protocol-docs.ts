/**
 * Validates recorded traffic against the served protocol documents (src/docs): WebSocket and SSE frames
 * against the AsyncAPI document's frame schemas, HTTP responses against the OpenAPI document's response for
 * their path and status. Each check returns the validator's complaints, empty when the traffic is
 * documented, so a test can show every undocumented frame at once.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { asyncApiDocument as buildAsyncApi } from '../../src/wire-model/asyncapi.ts'
import { openApiDocument as buildOpenApi } from '../../src/wire-model/openapi.ts'

/** The AsyncAPI schema of each server frame `type`. */
const asyncApiDocument = buildAsyncApi()
const openApiDocument = buildOpenApi()

const SERVER_FRAMES: Record<string, string> = {
  authorized: 'AuthorizedFrame',
  hello: 'HelloFrame',
  subscribed: 'SubscribedFrame',
  unsubscribed: 'UnsubscribedFrame',
  snapshot: 'SnapshotFrame',
  replay: 'ReplayFrame',
  change: 'ChangeFrame',
  odds: 'OddsFrame',
  standings: 'StandingsFrame',
  pong: 'PongFrame',
  error: 'ErrorFrame'
}
const CLIENT_FRAMES: Record<string, string> = { subscribe: 'SubscribeFrame', unsubscribe: 'UnsubscribeFrame', ping: 'PingFrame', auth: 'AuthFrame' }

// Not strict: the documents carry AsyncAPI/OpenAPI keywords (`asyncapi`, `info`, `paths`...) around the schemas.
const asyncAjv = new Ajv({ strict: false, allErrors: true })
addFormats.default(asyncAjv)
asyncAjv.addSchema(asyncApiDocument, 'asyncapi.json')
const openAjv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(openAjv)
openAjv.addSchema(openApiDocument, 'openapi.json')

const compiled = new Map<string, ValidateFunction>()
function validator (ajv: Ajv | Ajv2020, ref: string): ValidateFunction {
  let v = compiled.get(ref)
  if (v === undefined) compiled.set(ref, v = ajv.compile({ $ref: ref }))
  return v
}

function check (v: ValidateFunction, value: unknown, what: string): string[] {
  if (v(value)) return []
  return (v.errors ?? []).slice(0, 5).map((e) => `${what}: ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
}

function frameErrors (names: Record<string, string>, field: 'type' | 'op', frame: Record<string, unknown>): string[] {
  const name = names[String(frame[field])]
  if (name === undefined) return [`undocumented frame ${field} ${JSON.stringify(frame[field])}`]
  return check(validator(asyncAjv, `asyncapi.json#/components/schemas/${name}`), frame, `${String(frame[field])} frame`)
}

/** Complaints about a frame the server sent (WebSocket, or the `data` of an SSE event). */
export const serverFrameErrors = (frame: Record<string, unknown>): string[] => frameErrors(SERVER_FRAMES, 'type', frame)

/** Complaints about a frame a client sent that the server accepted. */
export const clientFrameErrors = (frame: Record<string, unknown>): string[] => frameErrors(CLIENT_FRAMES, 'op', frame)

/**
 * Every `$ref` of both documents that does not resolve, and every component schema the validators cannot
 * compile: a document a code generator would choke on.
 */
export function documentErrors (): string[] {
  const errors: string[] = []
  const docs = [['asyncapi.json', asyncApiDocument, asyncAjv], ['openapi.json', openApiDocument, openAjv]] as const
  for (const [name, doc, ajv] of docs) {
    for (const ref of refsIn(doc)) {
      if (resolve(doc, ref) === undefined) errors.push(`${name}: ${ref} does not resolve`)
    }
    for (const schema of Object.keys(doc.components.schemas)) {
      try {
        validator(ajv, `${name}#/components/schemas/${schema}`)
      } catch (err) {
        errors.push(`${name}: ${schema}: ${(err as Error).message}`)
      }
    }
  }
  return errors
}

function refsIn (value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn)
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => k === '$ref' && typeof v === 'string' ? [v] : refsIn(v))
}

function resolve (doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  return ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((at, part) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined), doc)
}

/** Complaints about a value that should be the component schema `name` of the OpenAPI document. */
export function schemaErrors (name: string, body: unknown): string[] {
  return check(validator(openAjv, `openapi.json#/components/schemas/${name}`), body, name)
}

/** Complaints about an HTTP JSON response to `GET path` (or another method's; path without the query). */
export function responseErrors (path: string, status: number, body: unknown, method: 'get' | 'post' | 'delete' = 'get'): string[] {
  type Op = { responses: Record<string, { $ref?: string, content?: Record<string, { schema: { $ref?: string } }> }> }
  const paths = openApiDocument.paths as unknown as Record<string, Partial<Record<'get' | 'post' | 'delete', Op>>>
  const op = paths[path]?.[method]
  if (op === undefined) return [`undocumented path ${method.toUpperCase()} ${path}`]
  let response = op.responses[String(status)]
  if (response === undefined) return [`undocumented status ${status} for ${path}`]
  if (response.$ref !== undefined) {
    const name = response.$ref.split('/').pop() as string
    response = (openApiDocument.components.responses as Record<string, typeof response>)[name] as typeof response
  }
  const schemaRef = response.content?.['application/json']?.schema.$ref
  if (schemaRef === undefined) return [`no JSON schema for ${status} ${path}`]
  return check(validator(openAjv, `openapi.json${schemaRef}`), body, `${status} ${path}`)
}
