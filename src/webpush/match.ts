/**
 * Which devices of a shard an alert goes to: those following its fixture, its league or one of its teams,
 * taking its kind, not muting its fixture, whose client key still exists and still covers its league (a
 * keys reload may narrow a key after its devices subscribed), and, for a device a fan posted with a token
 * narrowed to some leagues, one of those. Indexed once per version of the shard.
 */
import { leagueAllowed, type ClientKey } from '../client-keys.ts'
import type { Alert } from './alerts.ts'
import { ownerOf, type StoredDevice } from './devices.ts'

type Index = Map<number, StoredDevice[]>

function add (index: Index, id: number, sub: StoredDevice): void {
  const list = index.get(id)
  if (list === undefined) index.set(id, [sub])
  else list.push(sub)
}

export class ShardIndex {
  private readonly teams: Index = new Map()
  private readonly fixtures: Index = new Map()
  private readonly leagues: Index = new Map()
  private readonly endpoints = new Map<string, StoredDevice>()

  constructor (readonly version: string, subscriptions: readonly StoredDevice[]) {
    for (const sub of subscriptions) {
      this.endpoints.set(sub.endpoint, sub)
      for (const id of sub.follow.teams) add(this.teams, id, sub)
      for (const id of sub.follow.fixtures) add(this.fixtures, id, sub)
      for (const id of sub.follow.leagues) add(this.leagues, id, sub)
    }
  }

  get size (): number {
    return this.endpoints.size
  }

  get (endpoint: string): StoredDevice | undefined {
    return this.endpoints.get(endpoint)
  }

  /** The devices the alert goes to, each once. `keys`: the client keys now. */
  match (alert: Alert, keys: readonly ClientKey[]): StoredDevice[] {
    const found = new Set<StoredDevice>([
      ...this.fixtures.get(alert.fixtureId) ?? [],
      ...this.leagues.get(alert.leagueId) ?? [],
      ...this.teams.get(alert.teams[0]) ?? [],
      ...this.teams.get(alert.teams[1]) ?? []
    ])
    const owners = new Map(keys.map((k) => [ownerOf(k.name), k]))
    return [...found].filter((sub) => {
      const key = owners.get(sub.owner)
      return key !== undefined && leagueAllowed(key, alert.leagueId) && (sub.fan_leagues === undefined || sub.fan_leagues.includes(alert.leagueId)) &&
        sub.kinds.includes(alert.wants) && !sub.muted.includes(alert.fixtureId)
    })
  }
}
