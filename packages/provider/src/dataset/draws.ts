/**
 * Who plays each season of a competition, where neutral and hosted fixtures are played, who referees,
 * and what the season is called.
 */
import { CL_ENTRANTS, type LeagueSpec } from './competitions.ts'
import type { BuildContext } from './context.ts'
import { DAY, yearOf } from './dates.ts'
import { UEFA_REFEREE_COUNTRIES } from './names.ts'
import type { Rng } from '../rng.ts'
import { timeline } from './schedule.ts'
import type { Team, Venue } from './types.ts'

/** The teams the generator created, by role. */
export interface TeamPools {
  /** Domestic league id → its clubs, the big clubs first. */
  leagues: ReadonlyMap<number, readonly Team[]>
  faCupExtra: readonly Team[]
  scottishChampionship: readonly Team[]
  /** Clubs of the European countries without a league in the dataset. */
  europeanPool: readonly Team[]
  nationalTeams: readonly Team[]
}

const ids = (teams: readonly Team[]): number[] => teams.map((t) => t.id)

function leagueOf (pools: TeamPools, specs: readonly LeagueSpec[], iso3: string): readonly Team[] {
  const spec = specs.find((s) => s.draw === 'domestic' && s.country === iso3)
  return spec === undefined ? [] : pools.leagues.get(spec.id) ?? []
}

/** Direct entrants of each phase of one season. */
export function entrantsFor (spec: LeagueSpec, specs: readonly LeagueSpec[], pools: TeamPools, rng: Rng): number[][] {
  switch (spec.draw) {
    case 'domestic':
      return [ids(pools.leagues.get(spec.id) ?? [])]
    case 'fa-cup':
      return [[...ids(leagueOf(pools, specs, 'ENG')), ...ids(pools.faCupExtra)]]
    case 'champions': {
      const direct: number[] = []
      const playoffs: number[] = []
      for (const [iso3, [toGroups, toPlayoffs]] of Object.entries(CL_ENTRANTS)) {
        const clubs = ids(leagueOf(pools, specs, iso3))
        direct.push(...clubs.slice(0, toGroups))
        playoffs.push(...clubs.slice(toGroups, toGroups + toPlayoffs))
      }
      const playoffSize = 2 * (spec.phases[0]?.kind === 'ko' ? spec.phases[0].ties : 0)
      playoffs.push(...rng.sample(ids(pools.europeanPool), playoffSize - playoffs.length))
      return [playoffs, direct]
    }
    case 'euro':
      return [rng.sample(ids(pools.nationalTeams), 24)]
    case 'playoffs': {
      const [second, third, fourth] = ids(pools.scottishChampionship)
      const eleventh = ids(leagueOf(pools, specs, 'SCO'))[10]
      return [[third, fourth], [second], [eleventh]].map((list) => list.filter((id): id is number => id !== undefined))
    }
    case 'friendlies':
      return [ids(pools.europeanPool)]
  }
}

/** The venues of a tournament hosted by one country: its largest ten (the national stadium among them). */
export function hostVenues (ctx: BuildContext, countryId: number): number[] {
  return [...(ctx.venuesByCountry.get(countryId) ?? [])].sort((a, b) => b.capacity - a.capacity).slice(0, 10).map((v) => v.id)
}

/** Neutral venues (finals): the three largest of the competition's country, or of Europe's for European ones. */
export function neutralVenues (ctx: BuildContext, countryId: number): number[] {
  const own = ctx.venuesByCountry.get(countryId)
  const candidates: Venue[] = own ?? [...ctx.venuesByCountry.values()].flat()
  return [...candidates].sort((a, b) => b.capacity - a.capacity || a.id - b.id).slice(0, 3).map((v) => v.id)
}

/**
 * Referees: domestic competitions use their country's, European ones a panel from countries other than the
 * two teams', friendlies the home country's (or none, as often happens upstream).
 */
export function refereePicker (ctx: BuildContext, spec: LeagueSpec, countryId: number): (home: number, away: number, rng: Rng) => number | null {
  const countryOfTeam = (id: number): number => ctx.teams.get(id)?.country_id ?? 0
  if (spec.draw === 'friendlies') {
    return (home, _away, rng) => rng.chance(0.4) ? null : rng.pick(ctx.refereesByCountry.get(countryOfTeam(home)) ?? [null])
  }
  if (spec.draw === 'champions' || spec.draw === 'euro') {
    const panel = UEFA_REFEREE_COUNTRIES
      .map((iso3) => ctx.geo.byIso3.get(iso3)?.id)
      .filter((id): id is number => id !== undefined)
    return (home, away, rng) => {
      const excluded = new Set([countryOfTeam(home), countryOfTeam(away)])
      const country = rng.pick(panel.filter((id) => !excluded.has(id)))
      return rng.pick(ctx.refereesByCountry.get(country) ?? [null])
    }
  }
  const own = ctx.refereesByCountry.get(countryId) ?? []
  return (_home, _away, rng) => own.length === 0 ? null : rng.pick(own)
}

/**
 * Name of the season `age` editions back. Derived from the current season's dates, then counted back, so
 * that names never collide: `2025/2026` for split seasons, `2026` for calendar-year ones.
 */
export function seasonName (spec: LeagueSpec, anchor: number, age: number): string {
  const slots = timeline(spec)
  const current = slots[spec.current]?.offset ?? 0
  const dayOf = (offset: number): number => anchor + (spec.anchorShift + offset - current) * DAY
  const start = dayOf(slots[0]?.offset ?? 0)
  const end = dayOf(slots[slots.length - 1]?.offset ?? 0)
  const yearsPerSeason = Math.max(1, Math.round(spec.seasonDays / 364))
  const startYear = yearOf(start) - age * yearsPerSeason
  if (spec.naming === 'year') return String(startYear)
  const julyOrLater = new Date(start * 1000).getUTCMonth() >= 6
  const first = yearOf(end) > yearOf(start) || julyOrLater ? startYear : startYear - 1
  return `${first}/${first + 1}`
}
