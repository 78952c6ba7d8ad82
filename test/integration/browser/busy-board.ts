/**
 * A busy simulated board for the browser tests, played into a hand-driven store (test/helpers/matches.ts):
 * 21 matches in play in 7 leagues of the embedded provider (so the passthrough names and ranks them), with
 * what a livescore row has to tell: a red card in the 6th minute, an own goal that counts for the other
 * side, two reds for one side (a second yellow among them), a substitution and a VAR decision, half time,
 * a missed penalty, and a postponed match. Each match is returned by a short name.
 */
import type { Match, Matches } from '../../helpers/matches.ts'

/** Leagues of the embedded provider: id, and the order the board puts them in without a priority list. */
export const LEAGUES = { premier: 8, champions: 2, bundesliga: 82, laliga: 564, superliga: 271, premiership: 501, friendlies: 1101 }
/** By importance: the best-known competitions (Champions League, Premier League, La Liga, Bundesliga), then category 2 (Denmark, Scotland), then friendlies. */
export const LEAGUE_ORDER = [2, 8, 564, 82, 271, 501, 1101]

export interface BusyBoard {
  /** SV Mannheim 1-0 VfB Dortmund, 46': the goal is VfB Dortmund's David Veselý's own goal (45'). */
  mannheim: Match
  /** RSC Gent 0-0 Club Brugge, 20': Gent down to ten at 6'. */
  gent: Match
  /** Norwich Rovers 3-3 Stoke Albion, 88': Stoke have had two players sent off (one on a second yellow). */
  norwich: Match
  /** Real Vigo 1-0 Atlético Sur, 61': a VAR decision at 19' (goal disallowed), a missed penalty at 44', a substitution at 59'. */
  vigo: Match
  /** Arsenal Town 2-1 Chelsea Rovers, 67'. */
  arsenal: Match
  /** Bournemouth Athletic 0-0 Burnley United, 5'. */
  bournemouth: Match
  /** Luton Borough v Watford County: postponed. */
  luton: Match
  all: Match[]
}

export async function busyBoard (m: Matches): Promise<BusyBoard> {
  const { premier, champions, bundesliga, laliga, superliga, premiership, friendlies } = LEAGUES
  const arsenal = await m.start(7001, premier, 'Arsenal Town', 'Chelsea Rovers', 60)
  await arsenal.goal('home', 'Bukayo Saka', 14)
  await arsenal.goal('away', 'Cole Palmer', 38)
  await arsenal.goal('home', 'Martin Ødegaard', 67)
  const leeds = await m.start(7002, premier, 'Leeds Rovers', 'Everton City', 20)
  await leeds.goal('away', 'Dwight McNeil', 23)
  const hull = await m.start(7003, premier, 'Hull Wanderers', 'Derby Athletic', 40)
  await hull.state('HT')
  const norwich = await m.start(7004, premier, 'Norwich Rovers', 'Stoke Albion', 60)
  await norwich.goal('home', 'Josh Sargent', 61)
  await norwich.goal('away', 'Lewis Baker', 64)
  await norwich.card('away', 'Ben Wilmot', 66, 'YELLOWREDCARD')
  await norwich.goal('home', 'Borja Sainz', 70)
  await norwich.goal('away', 'Million Manhoef', 75)
  await norwich.goal('home', 'Gabriel Sara', 80)
  await norwich.card('away', 'Josh Laurent', 82, 'REDCARD')
  await norwich.goal('away', 'Tyrese Campbell', 88)
  const bournemouth = await m.start(7007, premier, 'Bournemouth Athletic', 'Burnley United', 5)
  const luton = await m.start(7006, premier, 'Luton Borough', 'Watford County', 1)
  await luton.state('POSTPONED')

  const gent = await m.start(7101, champions, 'RSC Gent', 'Club Brugge', 20)
  await gent.card('home', 'Sven Kums', 6, 'REDCARD')
  const ajax = await m.start(7102, champions, 'AFC Ajax', 'FC Porto', 55)
  await ajax.goal('home', 'Brian Brobbey', 30)
  await ajax.goal('away', 'Samu Omorodion', 52)
  const psv = await m.start(7103, champions, 'PSV Eindhoven', 'Celtic Glasgow', 12)
  const benfica = await m.start(7104, champions, 'SL Benfica', 'Inter Milano', 80)
  for (const [minute, who] of [[21, 'Lautaro Martínez'], [49, 'Marcus Thuram'], [77, 'Nicolò Barella']] as const) await benfica.goal('away', who, minute)

  const mannheim = await m.start(7201, bundesliga, 'SV Mannheim', 'VfB Dortmund', 46)
  await mannheim.goal('away', 'David Veselý', 45, 'OWNGOAL')
  const koeln = await m.start(7202, bundesliga, 'FC Köln', 'Hertha Berlin', 30)
  const mainz = await m.start(7203, bundesliga, 'FSV Mainz', 'Werder Bremen', 75)
  await mainz.goal('home', 'Jonathan Burkardt', 20)
  await mainz.goal('away', 'Marvin Ducksch', 44)
  await mainz.goal('away', 'Romano Schmid', 61)
  await mainz.goal('home', 'Nadiem Amiri', 74, 'PENALTY')

  const vigo = await m.start(7301, laliga, 'Real Vigo', 'Atlético Sur', 61)
  await vigo.event('away', 'VAR', 'Michal Pospíšil', 19, { info: 'Goal Disallowed' })
  await vigo.goal('home', 'Iago Aspas', 34)
  await vigo.card('away', 'Álvaro Negredo', 44, 'MISSED_PENALTY')
  await vigo.event('home', 'SUBSTITUTION', 'Maxime Diallo', 59, { related: 'Tomás Prieto' })
  const sevilla = await m.start(7302, laliga, 'Sevilla Sur', 'Betis Norte', 40)
  await sevilla.goal('home', 'Isaac Romero', 36)
  const valencia = await m.start(7303, laliga, 'Valencia Costa', 'Girona Alta', 15)

  const midtjylland = await m.start(7501, superliga, 'FC Midtjylland', 'Brøndby IF', 40)
  await midtjylland.card('away', 'J. Hansen', 33)
  const koebenhavn = await m.start(7502, superliga, 'FC København', 'Randers FC', 52)
  await koebenhavn.goal('home', 'Mohamed Elyounoussi', 18)
  await koebenhavn.goal('home', 'Orri Óskarsson', 47)

  const celtic = await m.start(7401, premiership, 'Celtic', 'Kilmarnock', 18)
  const hearts = await m.start(7402, premiership, 'Hearts', 'Hibernian', 70)
  await hearts.goal('away', 'Martin Boyle', 12)
  await hearts.goal('home', 'Lawrence Shankland', 50)
  await hearts.goal('away', 'Dylan Vente', 66)
  const aberdeen = await m.start(7403, premiership, 'Aberdeen', 'Dundee', 33)

  const admira = await m.start(7601, friendlies, 'Admira Salzburg', 'Racing Esch', 10)

  return {
    mannheim,
    gent,
    norwich,
    vigo,
    arsenal,
    bournemouth,
    luton,
    all: [arsenal, leeds, hull, norwich, bournemouth, luton, gent, ajax, psv, benfica, mannheim, koeln, mainz, vigo, sevilla, valencia,
      midtjylland, koebenhavn, celtic, hearts, aberdeen, admira]
  }
}
