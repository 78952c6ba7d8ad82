/**
 * What a key limited to some leagues may follow besides its leagues: teams and fixtures, named by id. Their
 * league is not in the request, so it is looked up in the store; what the store does not know is accepted
 * (refusing it would refuse every fixture not started yet), and is safe to accept: like every subscription,
 * its changes are delivered only from the key's leagues (checked per change), so accepting it never reveals
 * another league's fixture.
 *  - A fixture the store holds (live, or ended and still kept) of a league outside the key's scope is
 *    refused (`forbidden`, listed in `fixtures`), as a league outside it is.
 *  - A team may be followed when it plays in one of the key's leagues; what a team plays in is learned from
 *    the store's live fixtures (upstream has no cheap "leagues of a team" answer, and the live index is what
 *    a team filter delivers from). A team seen there only in leagues outside the key's scope is refused
 *    (`forbidden`, listed in `teams`); a team not live right now is accepted.
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

/**
 * The league of each fixture among `fixtures` that the store holds (fixtures it does not know are left
 * out). Read once, then checked against whatever the key is by then (`fixturesOutside`): a keys reload may
 * narrow it while the read is awaited. Rejects when the store does.
 */
export async function fixtureLeagues (store: LiveStore, fixtures: readonly number[]): Promise<Map<number, number>> {
  if (fixtures.length === 0) return new Map()
  return new Map((await store.getFixtures([...new Set(fixtures)])).map((f) => [f.id, f.league_id]))
}

/** The fixtures among `fixtures` whose known league is outside the key's scope, ascending. */
export function fixturesOutside (key: ClientKey, fixtures: readonly number[], leagueOf: ReadonlyMap<number, number>): number[] {
  return [...new Set(fixtures)].filter((id) => {
    const league = leagueOf.get(id)
    return league !== undefined && !leagueAllowed(key, league)
  }).sort((a, b) => a - b)
}

/** The fixtures among `fixtures` that the store knows to be of a league outside the key's scope, ascending. Rejects when the store does. */
export async function fixturesOutsideScope (store: LiveStore, key: ClientKey, fixtures: readonly number[]): Promise<number[]> {
  if (key.leagues === '*' || fixtures.length === 0) return []
  return fixturesOutside(key, fixtures, await fixtureLeagues(store, fixtures))
}
