/**
 * The geography of the dataset (continents, countries, regions, cities) built from geo-data.ts. It does not
 * depend on the seed: coordinates and geonames ids come from a fixed stream.
 */
import { CONTINENTS, COUNTRIES, EUROPE_PSEUDO_COUNTRY, type CountrySeed } from './geo-data.ts'
import { hashString, Rng } from '../rng.ts'
import type { City, Continent, Country, Region } from './types.ts'

const REGION_BASE = 1000
const CITY_BASE = 30_000

export interface Geo {
  continents: Continent[]
  countries: Country[]
  regions: Region[]
  cities: City[]
  /** Seeds of the real countries (the pseudo-country Europe has none). */
  seeds: ReadonlyMap<number, CountrySeed>
  byIso3: ReadonlyMap<string, Country>
  citiesOf: ReadonlyMap<number, readonly City[]>
  europe: Country
}

const flag = (iso2: string): string => `https://cdn.sportmonks.com/images/countries/png/short/${iso2.toLowerCase()}.png`

function countryOf (seed: CountrySeed): Country {
  return {
    id: seed.id,
    continent_id: seed.continent,
    name: seed.name,
    official_name: seed.official,
    fifa_name: seed.fifa,
    iso2: seed.iso2,
    iso3: seed.iso3,
    latitude: seed.lat.toFixed(6),
    longitude: seed.lng.toFixed(6),
    geonameid: seed.geonameid,
    borders: seed.borders.slice(),
    image_path: flag(seed.iso2)
  }
}

function europeCountry (): Country {
  const e = EUROPE_PSEUDO_COUNTRY
  const [fifa = '', iso2 = '', iso3 = ''] = e.codes.split(' ')
  return {
    id: e.id,
    continent_id: e.continent,
    name: e.name,
    official_name: e.official,
    fifa_name: fifa,
    iso2,
    iso3,
    latitude: e.lat.toFixed(6),
    longitude: e.lng.toFixed(6),
    geonameid: e.geonameid,
    borders: [],
    image_path: flag(iso2)
  }
}

export function buildGeo (): Geo {
  const rng = new Rng(hashString('touchline-geo'))
  const continents: Continent[] = CONTINENTS.map((c) => ({ id: c.id, name: c.name, code: c.code }))
  const europe = europeCountry()
  const countries = [...COUNTRIES.map(countryOf), europe].sort((a, b) => a.id - b.id)
  const regions: Region[] = []
  const cities: City[] = []
  const citiesOf = new Map<number, City[]>()
  for (const seed of COUNTRIES) {
    const own: City[] = []
    for (const r of seed.regions) {
      const region: Region = { id: REGION_BASE + regions.length + 1, country_id: seed.id, name: r.name }
      regions.push(region)
      for (const name of r.cities) {
        const city: City = {
          id: CITY_BASE + cities.length + 1,
          country_id: seed.id,
          region_id: region.id,
          name,
          latitude: (seed.lat + rng.float(-seed.spread[0], seed.spread[0])).toFixed(6),
          longitude: (seed.lng + rng.float(-seed.spread[1], seed.spread[1])).toFixed(6),
          geonameid: rng.int(100_000, 9_999_999)
        }
        cities.push(city)
        own.push(city)
      }
    }
    citiesOf.set(seed.id, own)
  }
  return {
    continents,
    countries,
    regions,
    cities,
    seeds: new Map(COUNTRIES.map((s) => [s.id, s])),
    byIso3: new Map(countries.map((c) => [c.iso3, c])),
    citiesOf,
    europe
  }
}
