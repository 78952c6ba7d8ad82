/** Plan checks: a valid token gets 403 for a league outside its plan, and for includes or endpoints its plan has not paid for. */
import type { Endpoint } from '@touchline/upstream-contract/endpoints'
import { missingFeature } from '@touchline/upstream-contract/features'
import type { IncludeNode } from '@touchline/upstream-contract/query'
import type { Feature, Kind } from '@touchline/upstream-contract/resources'
import { forbidden, type ErrorReply } from './error-replies.ts'
import type { Plan } from './plans.ts'

/** What a caller must buy to use a feature, as `plan_required` says it. */
const REQUIRED: Readonly<Record<Feature, { resource: string, plan: string }>> = {
  xg: { resource: 'xGFixture', plan: 'Pro' },
  odds: { resource: 'odds', plan: 'Odds package' },
  predictions: { resource: 'predictions', plan: 'Predictions add-on' }
}

export function featureError (plan: Plan, endpoint: Endpoint, includes: readonly IncludeNode[]): ErrorReply | undefined {
  const missing = missingFeature(endpoint, includes, (f) => plan.features.has(f))
  if (missing === undefined) return undefined
  const { resource, plan: required } = REQUIRED[missing]
  return forbidden(resource, required)
}

/** League id of a record, when the record belongs to one league (for the Free plan's scope). */
export function leagueOf (kind: Kind, record: { id: number, league_id?: unknown }): number | undefined {
  if (kind === 'league') return record.id
  return typeof record.league_id === 'number' ? record.league_id : undefined
}

export function leagueVisible (plan: Plan, leagueId: number): boolean {
  return plan.leagues === '*' || plan.leagues.includes(leagueId)
}

export function leagueForbidden (leagueId: number): ErrorReply {
  return forbidden(`league ${leagueId}`, 'Starter', `League ${leagueId} is not included in your subscription. Upgrade to a plan that covers it.`)
}
