/**
 * The account endpoints (`/my/*`) for a client key: they describe the key, never the gateway's upstream
 * account (its leagues, add-ons, hourly limit or usage). Answered here, in the upstream's envelope and the
 * embedded provider's record shapes, without an upstream call:
 * - `/my/usage`: the key's own open quota windows, per entity (the upstream's usage shape);
 * - `/my/resources`: the key's leagues, features and hourly quota (the provider's `resources` rows;
 *   the real API's shape is not documented). A key with every league lists its ids as `"*"`;
 * - any other `/my/...` outside the catalogue (`/my/enrichments`...) is a 404 here, never forwarded.
 * `/my/leagues` is answered from the upstream's league records, filtered to the key's leagues by the scope.
 * None of these carries the upstream's `subscription` (the gateway's plans).
 */
import type { ClientKey } from '../client-keys.ts'
import type { EnvelopeParts } from './entry.ts'
import { WINDOW_MS } from '@touchline/upstream-contract/hourly-window'
import type { QuotaState } from './quota.ts'

/** Account paths the passthrough serves (the rest of `/my/` is never forwarded). */
const ANSWERED = new Set(['/my/usage', '/my/resources', '/my/leagues', '/my/filters/entity'])

/** True for a `/my/...` path this module does not answer: a 404, whatever forwards unknown paths. */
export function isUnservedAccountPath (path: string): boolean {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
  return p.toLowerCase().startsWith('/my/') && !ANSWERED.has(p)
}

const formatDateTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

/** `/my/usage` from the key's quota windows. */
export function usageParts (windows: readonly QuotaState[], timezone: string): EnvelopeParts {
  const data = windows.map((w) => ({
    entity: w.entity,
    requests_made: w.used,
    remaining_requests: w.remaining,
    period_start: formatDateTime(w.windowStart),
    period_end: formatDateTime(w.windowStart + WINDOW_MS)
  }))
  return { data: JSON.stringify(data), timezone }
}

/** `/my/resources` for the key: its leagues, its features and its hourly quota per entity. */
export function resourcesParts (key: ClientKey, timezone: string): EnvelopeParts {
  const leagues = key.leagues === '*'
    ? { id: 1, resource: 'leagues', count: null, ids: '*' }
    : { id: 1, resource: 'leagues', count: key.leagues.length, ids: [...key.leagues].sort((a, b) => a - b) }
  const data = [
    leagues,
    { id: 2, resource: 'features', features: [...key.features].sort() },
    { id: 3, resource: 'hourly_limit', limit: key.hourly_quota }
  ]
  return { data: JSON.stringify(data), timezone }
}
