/**
 * JSON Schemas of the wire model (src/wire-model/model.ts, src/wire-model/http.ts), by zod's own `toJSONSchema`: every
 * schema with a `meta({ id })` becomes a component named by its id, referenced as
 * `#/components/schemas/<id>`, as the AsyncAPI and OpenAPI documents and the client's generated
 * declarations all name them.
 */
import { z } from 'zod'
import './model.ts'
import './http.ts'

export type JsonSchema = Record<string, unknown>

/** Draft 7 for AsyncAPI 3 (its default schema format extends it), 2020-12 for OpenAPI 3.1. */
export type SchemaTarget = 'draft-7' | 'draft-2020-12'

/** Where a document keeps its component schemas. */
export const COMPONENTS = '#/components/schemas/'
const SAFE = Number.MAX_SAFE_INTEGER

/**
 * What zod adds that says nothing to a reader: the safe-integer bounds of every integer, and the long
 * pattern beside `format: date-time` (the format says it).
 */
export function tidy (schema: JsonSchema): void {
  if (schema.maximum === SAFE) delete schema.maximum
  if (schema.minimum === -SAFE) delete schema.minimum
  if (schema.format === 'date-time') delete schema.pattern
}

/** Every `$ref` name below `value`. */
function refsOf (value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) refsOf(item, into)
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(COMPONENTS)) into.add(item.slice(COMPONENTS.length))
      else refsOf(item, into)
    }
  }
}

/** The component name of a schema of the model: its `meta({ id })`. */
export function idOf (schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id
  if (id === undefined) throw new Error('a document names a schema that has no id')
  return id
}

/**
 * The component schemas of `roots` and everything they refer to, sorted by name. Only what is reachable goes
 * in, so a document holds no unused schema whatever else the process registered.
 */
export function componentSchemas (target: SchemaTarget, rootSchemas: readonly z.ZodType[]): Record<string, JsonSchema> {
  const roots = rootSchemas.map(idOf)
  const all = z.toJSONSchema(z.globalRegistry, {
    target,
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => COMPONENTS + id,
    override: (ctx) => tidy(ctx.jsonSchema as JsonSchema)
  }).schemas as Record<string, JsonSchema>
  const wanted = new Set<string>()
  const queue = [...roots]
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (wanted.has(name)) continue
    const schema = all[name]
    if (schema === undefined) throw new Error(`no schema has the id "${name}"`)
    wanted.add(name)
    const refs = new Set<string>()
    refsOf(schema, refs)
    queue.push(...refs)
  }
  const out: Record<string, JsonSchema> = {}
  for (const name of [...wanted].sort()) {
    const { $schema: _schema, $id: _id, ...schema } = all[name] as JsonSchema
    out[name] = schema
  }
  return out
}
