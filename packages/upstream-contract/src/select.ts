/**
 * What `select` (and an include's field list) keeps of a record: the id, the chosen fields, and the record's
 * relation keys (`*_id`, `starting_at_timestamp`), which the real API adds on its own (docs/upstream.md, "Known quirks").
 * Relation keys are also what lets the gateway see which league a selected record belongs to.
 */
const RELATION_KEY = /_id$/

export function pickSelected<T extends Record<string, unknown>> (record: T, fields: readonly string[] | null): Record<string, unknown> {
  if (fields === null) return { ...record }
  const out: Record<string, unknown> = { id: record.id }
  for (const [name, value] of Object.entries(record)) {
    if (RELATION_KEY.test(name) || name === 'starting_at_timestamp') out[name] = value
  }
  for (const field of fields) if (field in record) out[field] = record[field]
  return out
}
