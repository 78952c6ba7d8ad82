/**
 * Players, coaches and referees. Club squads are 22 players (3 goalkeepers, 7 defenders, 7 midfielders,
 * 5 attackers), mostly of the club's country; national squads are 23 players of the nation, taken from the
 * club squads and topped up with players of clubs outside the dataset.
 */
import { imagePath, type BuildContext } from './context.ts'
import { yearOf } from './dates.ts'
import type { CountrySeed } from './geo-data.ts'
import { NAME_POOLS } from './names.ts'
import type { Rng } from '../rng.ts'
import type { Coach, PersonBase, Player, Referee, Team } from './types.ts'

const GK = 24
const DF = 25
const MF = 26
const FW = 27

/** Detailed positions (real type ids): 148 centre back, 154 right back, 155 left back, 149 defensive
 * midfield, 153 central midfield, 150 attacking midfield, 157 left / 158 right midfield, 151 centre forward,
 * 152 left wing, 156 right wing, 163 secondary striker. */
const CLUB_SQUAD: ReadonlyArray<readonly [number, number]> = [
  [GK, 24], [GK, 24], [GK, 24],
  [DF, 148], [DF, 148], [DF, 148], [DF, 154], [DF, 154], [DF, 155], [DF, 155],
  [MF, 149], [MF, 149], [MF, 153], [MF, 153], [MF, 150], [MF, 157], [MF, 158],
  [FW, 151], [FW, 151], [FW, 152], [FW, 156], [FW, 163]
]
const NATIONAL_SQUAD: Readonly<Record<number, number>> = { [GK]: 3, [DF]: 8, [MF]: 7, [FW]: 5 }
const DETAILED_BY_POSITION: Readonly<Record<number, readonly number[]>> = {
  [GK]: [24], [DF]: [148, 154, 155], [MF]: [149, 153, 150, 157, 158], [FW]: [151, 152, 156, 163]
}
const HEIGHT: Readonly<Record<number, readonly [number, number]>> = { [GK]: [184, 199], [DF]: [176, 196], [MF]: [166, 189], [FW]: [168, 194] }

type Naming = Omit<PersonBase, 'id' | 'image_path' | 'sport_id' | 'country_id' | 'city_id'>

/** The name fields, `image_path`, then the body fields: the real API's key order. */
function withImage (n: Naming, image: string): Naming & { image_path: string } {
  return {
    common_name: n.common_name,
    firstname: n.firstname,
    lastname: n.lastname,
    name: n.name,
    display_name: n.display_name,
    image_path: image,
    height: n.height,
    weight: n.weight,
    date_of_birth: n.date_of_birth,
    gender: n.gender
  }
}

export class PeopleFactory {
  readonly #ctx: BuildContext
  readonly #rng: Rng
  readonly #year: number
  readonly #all: CountrySeed[]
  readonly #european: CountrySeed[]
  /** nationality → position → player ids, filled by club squads, read by national squads. */
  readonly #pool = new Map<number, Map<number, number[]>>()

  constructor (ctx: BuildContext) {
    this.#ctx = ctx
    this.#rng = ctx.rng.fork('people')
    this.#year = yearOf(ctx.anchor)
    this.#all = [...ctx.geo.seeds.values()]
    this.#european = this.#all.filter((s) => s.continent === 1)
  }

  #seed (countryId: number): CountrySeed {
    const seed = this.#ctx.geo.seeds.get(countryId)
    if (seed === undefined) throw new Error(`no country ${countryId}`)
    return seed
  }

  #person (seed: CountrySeed, ages: readonly [number, number], heights: readonly [number, number]): Omit<PersonBase, 'id' | 'image_path'> {
    const rng = this.#rng
    const names = NAME_POOLS[seed.names] ?? NAME_POOLS.en
    const firstname = rng.pick(names?.first ?? ['John'])
    const lastname = rng.pick(names?.last ?? ['Smith'])
    const height = rng.int(heights[0], heights[1])
    const month = String(rng.int(1, 12)).padStart(2, '0')
    const day = String(rng.int(1, 28)).padStart(2, '0')
    const city = rng.pick(this.#ctx.geo.citiesOf.get(seed.id) ?? [undefined])
    return {
      sport_id: 1,
      country_id: seed.id,
      city_id: city?.id ?? null,
      common_name: `${firstname.charAt(0)}. ${lastname}`,
      firstname,
      lastname,
      name: `${firstname} ${lastname}`,
      display_name: `${firstname} ${lastname}`,
      height,
      weight: height - 105 + rng.int(-6, 8),
      date_of_birth: `${this.#year - rng.int(ages[0], ages[1])}-${month}-${day}`,
      gender: 'male'
    }
  }

  #player (seed: CountrySeed, position: number, detailed: number): Player {
    const id = this.#ctx.ids.next('player')
    const p = this.#person(seed, [17, 36], HEIGHT[position] ?? [170, 190])
    // Keys in the real API's order, so that serialized records read like upstream ones.
    const player: Player = {
      id,
      sport_id: 1,
      country_id: p.country_id,
      nationality_id: seed.id,
      city_id: p.city_id,
      position_id: position,
      detailed_position_id: detailed,
      type_id: position,
      common_name: p.common_name,
      firstname: p.firstname,
      lastname: p.lastname,
      name: p.name,
      display_name: p.display_name,
      image_path: imagePath('players', id),
      height: p.height,
      weight: p.weight,
      date_of_birth: p.date_of_birth,
      gender: p.gender
    }
    this.#ctx.out.players.push(player)
    return player
  }

  /** Most players are of the club's country; the others come from anywhere, Europe more often. */
  #nationality (home: CountrySeed): CountrySeed {
    const roll = this.#rng.next()
    if (roll < 0.72) return home
    return this.#rng.pick(roll < 0.88 ? this.#european : this.#all)
  }

  clubSquad (team: Team): void {
    const home = this.#seed(team.country_id)
    const ids = CLUB_SQUAD.map(([position, detailed]) => {
      const player = this.#player(this.#nationality(home), position, detailed)
      let byPosition = this.#pool.get(player.nationality_id)
      if (byPosition === undefined) this.#pool.set(player.nationality_id, byPosition = new Map())
      const list = byPosition.get(position)
      if (list === undefined) byPosition.set(position, [player.id])
      else list.push(player.id)
      return player.id
    })
    this.#ctx.out.squads.set(team.id, ids)
  }

  /** Call after every club squad exists. */
  nationalSquad (team: Team): void {
    const seed = this.#seed(team.country_id)
    const ids: number[] = []
    for (const [key, count] of Object.entries(NATIONAL_SQUAD)) {
      const position = Number(key)
      const picked = this.#rng.sample(this.#pool.get(seed.id)?.get(position) ?? [], count)
      while (picked.length < count) {
        picked.push(this.#player(seed, position, this.#rng.pick(DETAILED_BY_POSITION[position] ?? [position])).id)
      }
      ids.push(...picked)
    }
    this.#ctx.out.squads.set(team.id, ids)
  }

  coach (team: Team): void {
    const home = this.#seed(team.country_id)
    const seed = team.type === 'national' || this.#rng.chance(0.75) ? home : this.#rng.pick(this.#european)
    const id = this.#ctx.ids.next('coach')
    const { sport_id: sportId, country_id: countryId, city_id: cityId, ...rest } = this.#person(seed, [36, 68], [168, 192])
    const coach: Coach = {
      id,
      player_id: null,
      sport_id: sportId,
      country_id: countryId,
      nationality_id: seed.id,
      city_id: cityId,
      ...withImage(rest, imagePath('coaches', id))
    }
    this.#ctx.out.coaches.push(coach)
    this.#ctx.out.coachOfTeam.set(team.id, id)
  }

  /** `count(seed)` referees for each European country. */
  referees (count: (seed: CountrySeed) => number): void {
    for (const seed of this.#european) {
      const ids: number[] = []
      for (let i = 0; i < count(seed); i++) {
        const id = this.#ctx.ids.next('referee')
        const { sport_id: sportId, country_id: countryId, city_id: cityId, ...rest } = this.#person(seed, [28, 47], [170, 192])
        const referee: Referee = { id, sport_id: sportId, country_id: countryId, city_id: cityId, ...withImage(rest, imagePath('referees', id)) }
        this.#ctx.out.referees.push(referee)
        ids.push(id)
      }
      this.#ctx.refereesByCountry.set(seed.id, ids)
    }
  }
}
