/**
 * Turns records into what the client asked for: the live view of fixtures, `select`, nested `include`s
 * (with per-include field lists, lower-cased response keys) and datetimes in the requested `timezone`.
 */
import type { IncludeNode } from '@touchline/upstream-contract/query'
import type { Kind } from '@touchline/upstream-contract/resources'
import { pickSelected } from '@touchline/upstream-contract/select'
import type { Caller } from './auth.ts'
import { formatInZone } from '@touchline/upstream-contract/time'
import { leagueOf, leagueVisible } from './access.ts'
import { resolveInclude, type IncludeContext } from './includes.ts'
import type { Rec } from './records.ts'
import type { World } from './world.ts'

export interface RenderContext extends IncludeContext {
  world: World
  caller: Caller
}

function renderOne (kind: Kind, record: Rec, includes: readonly IncludeNode[], fields: readonly string[] | null, ctx: RenderContext): Rec {
  let base = ctx.world.present(kind, record, ctx.now)
  if (kind === 'fixture' && ctx.query.timezone !== 'UTC' && typeof base.starting_at_timestamp === 'number') {
    base = { ...base, starting_at: formatInZone(base.starting_at_timestamp, ctx.query.timezone) }
  }
  const out = pickSelected(base, fields) as Rec
  for (const node of includes) {
    // A list include the provider has no data for is an empty list, as the real API sends one.
    const value = inPlan(node.target, resolveInclude(ctx.world, kind, node.name, record, ctx), ctx) ?? (node.many ? [] : null)
    if (Array.isArray(value)) {
      out[node.key] = value.map((child: Rec) => renderOne(node.target, child, node.children, node.fields, ctx))
    } else {
      out[node.key] = value === null || value === undefined ? null : renderOne(node.target, value, node.children, node.fields, ctx)
    }
  }
  return out
}

/** Included records of leagues outside the caller's plan are left out, as the base records are. */
function inPlan (kind: Kind, value: Rec | Rec[] | null, ctx: RenderContext): Rec | Rec[] | null {
  const ok = (r: Rec): boolean => {
    const league = leagueOf(kind, r)
    return league === undefined || leagueVisible(ctx.caller.plan, league)
  }
  if (value === null) return null
  if (Array.isArray(value)) return value.filter(ok)
  return ok(value) ? value : null
}

export function renderAll (kind: Kind, records: readonly Rec[], ctx: RenderContext): Rec[] {
  return records.map((r) => renderOne(kind, r, ctx.query.includes, ctx.query.select, ctx))
}
