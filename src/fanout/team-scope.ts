/**
 * Whether a key limited to some leagues may follow a team. A team may be followed when it plays in one of
 * the key's leagues; what a team plays in is learned from the store's live fixtures (upstream has no cheap
 * "leagues of a team" answer, and the live index is what a team filter delivers from). A team seen there
 * only in leagues outside the key's scope is refused (`forbidden`). A team not live right now is accepted:
 * like every subscription, its changes are delivered only from the key's leagues (checked per change), so
 * accepting it never reveals another league's fixture.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { LiveStore } from '../store/types.ts'

/** The teams among `teams` that play only outside the key's leagues right now, ascending. Rejects when the store does. */
export async function teamsOutsideScope (store: LiveStore, key: ClientKey, teams: readonly number[]): Promise<number[]> {
  if (key.leagues === '*' || teams.length === 0) return []
  const wanted = new Set(teams)
  const inScope = new Set<number>()
  const outside = new Set<number>()
  for (const f of await store.liveFixtures()) {
    for (const team of [f.home.id, f.away.id]) {
      if (wanted.has(team)) (leagueAllowed(key, f.league_id) ? inScope : outside).add(team)
    }
  }
  return [...outside].filter((id) => !inScope.has(id)).sort((a, b) => a - b)
}
