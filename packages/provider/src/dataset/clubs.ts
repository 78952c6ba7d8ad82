/**
 * Teams and their venues: clubs named from their country's patterns and cities ("FC København",
 * "Real Valladolid", "Leeds Rovers"), national teams named after their country with a national stadium.
 */
import { asciiLetters, imagePath, type BuildContext } from './context.ts'
import type { CountrySeed } from './geo-data.ts'
import { CLUB_PATTERNS, NAME_POOLS, SURFACES, VENUE_PATTERNS, type ClubStyle } from './names.ts'
import type { Rng } from '../rng.ts'
import type { City, Team, Venue } from './types.ts'

/** Venue capacity ranges by tier: 1 top flight, 2 second rank, 3 lower leagues, 0 national stadium. */
const CAPACITY: Readonly<Record<number, readonly [number, number]>> = {
  0: [40_000, 90_000], 1: [22_000, 81_000], 2: [8_000, 35_000], 3: [2_500, 15_000]
}

export class ClubFactory {
  readonly #ctx: BuildContext
  readonly #rng: Rng
  readonly #names = new Set<string>()
  readonly #codes = new Map<number, Set<string>>()
  readonly #cityQueue = new Map<number, City[]>()

  constructor (ctx: BuildContext) {
    this.#ctx = ctx
    this.#rng = ctx.rng.fork('clubs')
  }

  /** `count` clubs of a country; `strength(i)` sets how good the i-th is (the first ones are the big clubs). */
  clubs (seed: CountrySeed, count: number, tier: number, strength: (i: number) => number): Team[] {
    const style = CLUB_PATTERNS[seed.clubs ?? seed.names] ?? CLUB_PATTERNS.en as ClubStyle
    const teams: Team[] = []
    for (let i = 0; i < count; i++) {
      const { name, city } = this.#clubName(seed, style)
      const venue = this.#venue(seed, city, style.venue, tier, false)
      const team = this.#team(seed.id, venue.id, name, this.#shortCode(seed.id, city.name), this.#rng.int(1875, 1985), 'domestic')
      this.#ctx.strength.set(team.id, Math.min(0.98, Math.max(0.02, strength(i) + this.#rng.float(-0.06, 0.06))))
      teams.push(team)
    }
    return teams
  }

  nationalTeam (seed: CountrySeed): Team {
    const style = CLUB_PATTERNS[seed.clubs ?? seed.names] ?? CLUB_PATTERNS.en as ClubStyle
    const capital = this.#ctx.geo.citiesOf.get(seed.id)?.[0]
    if (capital === undefined) throw new Error(`country ${seed.id} has no city`)
    const venue = this.#venue(seed, capital, style.venue, 0, true)
    const team = this.#team(seed.id, venue.id, seed.name, seed.fifa, this.#rng.int(1889, 1935), 'national')
    this.#ctx.strength.set(team.id, this.#rng.float(0.2, 0.9))
    return team
  }

  #team (countryId: number, venueId: number, name: string, code: string, founded: number, type: string): Team {
    const id = this.#ctx.ids.next('team')
    const team: Team = {
      id,
      sport_id: 1,
      country_id: countryId,
      venue_id: venueId,
      gender: 'male',
      name,
      short_code: code,
      image_path: imagePath('teams', id),
      founded,
      type,
      placeholder: false,
      last_played_at: null
    }
    this.#ctx.out.teams.push(team)
    this.#ctx.teams.set(id, team)
    return team
  }

  /** Cities are used round-robin (each once before any twice), so a second club in a city comes late. */
  #nextCity (seed: CountrySeed): City {
    let queue = this.#cityQueue.get(seed.id)
    if (queue === undefined || queue.length === 0) {
      queue = this.#rng.shuffle(this.#ctx.geo.citiesOf.get(seed.id) ?? [])
      this.#cityQueue.set(seed.id, queue)
    }
    const city = queue.shift()
    if (city === undefined) throw new Error(`country ${seed.id} has no city`)
    return city
  }

  #clubName (seed: CountrySeed, style: ClubStyle): { name: string, city: City } {
    for (let attempt = 0; attempt < 200; attempt++) {
      const city = this.#nextCity(seed)
      for (let i = 0; i < 6; i++) {
        const name = this.#rng.pick(style.patterns).replace('{c}', city.name)
        if (!this.#names.has(name)) {
          this.#names.add(name)
          return { name, city }
        }
      }
    }
    throw new Error(`no club name left for country ${seed.id}`)
  }

  #shortCode (countryId: number, cityName: string): string {
    let used = this.#codes.get(countryId)
    if (used === undefined) this.#codes.set(countryId, used = new Set())
    const letters = asciiLetters(cityName).padEnd(3, 'X')
    const candidates = [letters.slice(0, 3)]
    for (let i = 1; i < letters.length; i++) {
      for (let j = i + 1; j < letters.length; j++) candidates.push(`${letters[0]}${letters[i]}${letters[j]}`)
    }
    let code = candidates.find((c) => !used.has(c))
    while (code === undefined || used.has(code)) {
      code = `${letters[0]}${String.fromCharCode(65 + this.#rng.int(0, 25))}${String.fromCharCode(65 + this.#rng.int(0, 25))}`
    }
    used.add(code)
    return code
  }

  #venue (seed: CountrySeed, city: City, styleKey: string, tier: number, national: boolean): Venue {
    const rng = this.#rng
    const style = VENUE_PATTERNS[styleKey] ?? VENUE_PATTERNS.en
    const surname = rng.pick((NAME_POOLS[seed.names] ?? NAME_POOLS.en)?.last ?? ['Park'])
    const name = national
      ? `${seed.name} National Stadium`
      : rng.pick(style?.names ?? ['{c} Stadium']).replace('{c}', city.name).replace('{s}', surname)
    const [min, max] = CAPACITY[tier] ?? [5000, 20000]
    const id = this.#ctx.ids.next('venue')
    const venue: Venue = {
      id,
      country_id: seed.id,
      city_id: city.id,
      name,
      address: (style?.street ?? '{n} {s} Road').replace('{s}', rng.pick(NAME_POOLS[seed.names]?.last ?? ['Main'])).replace('{n}', String(rng.int(1, 240))),
      zipcode: rng.chance(0.4) ? null : String(rng.int(1000, 99999)),
      latitude: (Number(city.latitude) + rng.float(-0.03, 0.03)).toFixed(6),
      longitude: (Number(city.longitude) + rng.float(-0.03, 0.03)).toFixed(6),
      capacity: Math.round(rng.int(min, max) / 10) * 10,
      image_path: imagePath('venues', id),
      city_name: city.name,
      surface: national ? 'grass' : rng.pick(SURFACES),
      national_team: national
    }
    this.#ctx.out.venues.push(venue)
    let own = this.#ctx.venuesByCountry.get(seed.id)
    if (own === undefined) this.#ctx.venuesByCountry.set(seed.id, own = [])
    own.push(venue)
    return venue
  }
}
