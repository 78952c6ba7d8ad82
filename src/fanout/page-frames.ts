/**
 * Change frames of a page of the log as one consumer sees them: its key's scope, its filter (teams are
 * matched here: the store filters by league and fixture only), its `kinds` and its format. Shared by
 * `GET /v1/changes` and the webhook workers, which send the same frames as the WebSocket.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { ChangeKind } from '../live/types.ts'
import type { ReadSinceResult } from '../store/types.ts'
import { LastVersions, Outgoing } from './outgoing.ts'
import { changeFrameJson, type Format } from './protocol.ts'
import { fixtureMatcher, type LiveFilter } from './snapshot-cache.ts'
import { withKinds } from './subscriptions.ts'

/** A filter as a request or a webhook names it: `leagues` ids or `*`, fixtures, teams. */
export interface NamedFilter {
  leagues?: readonly number[] | '*' | undefined
  fixtures?: readonly number[] | undefined
  teams?: readonly number[] | undefined
}

/**
 * The filter within the key's scope. Without leagues, fixtures and teams, or with `leagues=*`: everything
 * the key may see (undefined for an unscoped key).
 */
export function scopeFilter (q: NamedFilter, key: ClientKey): LiveFilter | undefined {
  if (q.leagues === '*' || (q.leagues === undefined && q.fixtures === undefined && q.teams === undefined)) {
    return key.leagues === '*' ? undefined : { leagues: key.leagues }
  }
  return { leagues: q.leagues ?? [], fixtures: q.fixtures ?? [], teams: q.teams ?? [] }
}

/**
 * The frames' JSON, in log order, from the JSON the store returned with the records (ReadSinceResult.json)
 * rather than serialized again. In `delta` format (never with kinds, see DELTA_WITH_KINDS) a fixture whose
 * previous version `versions` does not hold gets a full frame; `versions` is updated, so a consumer that
 * reads page after page may pass the same one.
 */
export function pageFrames (
  page: Pick<ReadSinceResult, 'records' | 'json'>, key: ClientKey, filter: LiveFilter | undefined,
  kinds: readonly ChangeKind[] | undefined, format: Format, versions: LastVersions = new LastVersions()
): string[] {
  const json = page.json?.length === page.records.length ? page.json : undefined
  const matches = fixtureMatcher(filter)
  const wanted = kinds === undefined ? undefined : new Set(kinds)
  const data: string[] = []
  page.records.forEach((record, i) => {
    // A fixture id of a league outside the key's scope matches in the store; the key must not see it.
    if (!leagueAllowed(key, record.league_id) || !matches(record.fixture)) return
    const recordJson = json?.[i] ?? JSON.stringify(record)
    if (format === 'delta') {
      data.push(Outgoing.of(record, recordJson, versions.swap(record)).frameJson('delta'))
      return
    }
    const view = wanted === undefined ? record : withKinds(record, wanted)
    if (view === undefined) return
    data.push(changeFrameJson(view === record ? recordJson : JSON.stringify(view)))
  })
  return data
}
