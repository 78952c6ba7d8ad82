/**
 * Turns records into what the client asked for: the live view of fixtures, `select`, nested `include`s
 * (with per-include field lists, lower-cased response keys) and datetimes in the requested `timezone`.
 */
import type { IncludeNode, ParsedQuery } from '../contract/query.ts'
import type { Kind } from '../contract/resources.ts'
import type { Caller } from './auth.ts'
import type { Rec, World } from './world.ts'

export interface RenderContext {
  world: World
  caller: Caller
  query: ParsedQuery
  now: number
  fixtureType: boolean
}

/** Formats unix seconds as `YYYY-MM-DD HH:MM:SS` in a time zone (the real API's format, no offset). */
export function formatInZone (unixSeconds: number, timeZone: string): string {
  if (timeZone === 'UTC') return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
  const parts = zoneFormatter(timeZone).formatToParts(new Date(unixSeconds * 1000))
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour') === '24' ? '00' : get('hour')}:${get('minute')}:${get('second')}`
}

const FORMATTERS = new Map<string, Intl.DateTimeFormat>()
function zoneFormatter (timeZone: string): Intl.DateTimeFormat {
  let f = FORMATTERS.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
    FORMATTERS.set(timeZone, f)
  }
  return f
}

function pick (record: Rec, fields: readonly string[] | null): Rec {
  if (fields === null) return { ...record }
  const out: Rec = { id: record.id }
  for (const field of fields) if (field in record) out[field] = record[field]
  return out
}

function renderOne (kind: Kind, record: Rec, includes: readonly IncludeNode[], fields: readonly string[] | null, ctx: RenderContext): Rec {
  let base = ctx.world.present(kind, record, ctx.now)
  if (kind === 'fixture' && ctx.query.timezone !== 'UTC' && typeof base.starting_at_timestamp === 'number') {
    base = { ...base, starting_at: formatInZone(base.starting_at_timestamp, ctx.query.timezone) }
  }
  const out = pick(base, fields)
  for (const node of includes) {
    const value = ctx.world.resolve(kind, node.name, record, ctx)
    if (Array.isArray(value)) {
      out[node.key] = value.map((child: Rec) => renderOne(node.target, child, node.children, node.fields, ctx))
    } else {
      out[node.key] = value === null || value === undefined ? null : renderOne(node.target, value, node.children, node.fields, ctx)
    }
  }
  return out
}

export function renderAll (kind: Kind, records: readonly Rec[], ctx: RenderContext): Rec[] {
  return records.map((r) => renderOne(kind, r, ctx.query.includes, ctx.query.select, ctx))
}
