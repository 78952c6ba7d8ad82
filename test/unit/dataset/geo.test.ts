import { describe, expect, it } from 'vitest'
import { generateDataset } from '../../../packages/provider/src/dataset/generate.ts'

const d = generateDataset({ seed: 1, anchor: Date.UTC(2026, 10, 21) / 1000 })

describe('dataset geography', () => {
  it('has six continents and about forty countries with real codes', () => {
    expect(d.continents).toHaveLength(6)
    expect(d.countries.length).toBeGreaterThanOrEqual(40)
    const dk = d.countries.find((c) => c.name === 'Denmark')
    expect(dk).toMatchObject({ id: 320, iso2: 'DK', iso3: 'DNK', fifa_name: 'DEN', continent_id: 1 })
    // The four UK nations are countries, as upstream; a country's iso2 is always two letters, so they share GB.
    expect(d.countries.find((c) => c.name === 'Scotland')).toMatchObject({ id: 1161, iso2: 'GB', iso3: 'SCO', fifa_name: 'SCO' })
    for (const c of d.countries) {
      expect(c.iso2).toMatch(/^[A-Z]{2}$/)
      expect(c.iso3).toMatch(/^[A-Z]{3}$/)
      expect(c.fifa_name).toMatch(/^[A-Z]{3}$/)
      expect(Number.isFinite(Number(c.latitude))).toBe(true)
      expect(d.byId.continent.has(c.continent_id)).toBe(true)
    }
  })

  it('has symmetric borders made of iso3 codes of the dataset', () => {
    const byIso3 = new Map(d.countries.map((c) => [c.iso3, c]))
    expect(byIso3.size).toBe(d.countries.length)
    for (const c of d.countries) {
      for (const iso3 of c.borders) {
        const neighbour = byIso3.get(iso3)
        expect(neighbour, `${c.iso3} borders ${iso3}`).toBeDefined()
        expect(neighbour?.borders, `${iso3} borders ${c.iso3}`).toContain(c.iso3)
      }
    }
    expect(byIso3.get('DEU')?.borders).toEqual(expect.arrayContaining(['DNK', 'FRA', 'NLD', 'POL']))
  })

  it('has a few regions per country and hundreds of cities inside them', () => {
    expect(d.cities.length).toBeGreaterThanOrEqual(300)
    for (const c of d.countries.filter((c) => c.name !== 'Europe')) {
      expect(d.regionsByCountry.get(c.id)?.length ?? 0, c.name).toBeGreaterThan(0)
    }
    for (const city of d.cities) {
      const region = d.byId.region.get(city.region_id)
      const country = d.byId.country.get(city.country_id)
      expect(region?.country_id).toBe(city.country_id)
      expect(Math.abs(Number(city.latitude) - Number(country?.latitude))).toBeLessThan(10)
      expect(Number.isInteger(city.geonameid)).toBe(true)
    }
  })
})
