/**
 * The `/core/types` records the dataset serves: event, period and score, statistic, standing detail, stage,
 * position, lineup, topscorer and transfer types (ids, names and developer names of the real API, as its responses carry them).
 * Period and score types share ids (a score row's type is the period it counts), as upstream.
 */
import type { TypeRecord } from './types.ts'

const code = (name: string): string => name.toLowerCase().replace(/%/g, '').trim().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '')

function t (id: number, name: string, developer: string, model: string, group: string | null = null): TypeRecord {
  return { id, name, code: code(name), developer_name: developer, model_type: model, stat_group: group }
}

const stat = (id: number, name: string, group: string): TypeRecord =>
  t(id, name, name.toUpperCase().replace(/%/g, '').trim().replace(/[^A-Z0-9]+/g, '_'), 'statistic', group)

export const TYPE_RECORDS: readonly TypeRecord[] = [
  t(1, '1st Half', '1ST_HALF', 'period'),
  t(2, '2nd Half', '2ND_HALF', 'period'),
  t(3, 'Extra Time', 'ET', 'period'),
  t(5, 'Penalties', 'PENALTY_SHOOTOUT', 'period'),
  t(10, 'VAR', 'VAR', 'event'),
  t(11, 'Lineup', 'LINEUP', 'lineup'),
  t(12, 'Bench', 'BENCH', 'lineup'),
  t(14, 'Goal', 'GOAL', 'event'),
  t(15, 'Own Goal', 'OWNGOAL', 'event'),
  t(16, 'Penalty', 'PENALTY', 'event'),
  t(17, 'Missed Penalty', 'MISSED_PENALTY', 'event'),
  t(18, 'Substitution', 'SUBSTITUTION', 'event'),
  t(19, 'Yellowcard', 'YELLOWCARD', 'event'),
  t(20, 'Redcard', 'REDCARD', 'event'),
  t(21, 'Yellow/Red card', 'YELLOWREDCARD', 'event'),
  t(22, 'Penalty Shootout Miss', 'PENALTY_SHOOTOUT_MISS', 'event'),
  t(23, 'Penalty Shootout Goal', 'PENALTY_SHOOTOUT_GOAL', 'event'),
  t(24, 'Goalkeeper', 'GOALKEEPER', 'position'),
  t(25, 'Defender', 'DEFENDER', 'position'),
  t(26, 'Midfielder', 'MIDFIELDER', 'position'),
  t(27, 'Attacker', 'ATTACKER', 'position'),
  stat(34, 'Corners', 'offensive'),
  t(39, 'ET 2nd Half', 'ET_2ND_HALF', 'period'),
  stat(41, 'Shots Off Target', 'offensive'),
  stat(42, 'Shots Total', 'offensive'),
  stat(43, 'Attacks', 'offensive'),
  stat(44, 'Dangerous Attacks', 'offensive'),
  t(45, 'Ball Possession %', 'BALL_POSSESSION', 'statistic', 'overall'),
  stat(51, 'Offsides', 'offensive'),
  stat(52, 'Goals', 'offensive'),
  stat(56, 'Fouls', 'defensive'),
  stat(57, 'Saves', 'defensive'),
  stat(58, 'Shots Blocked', 'offensive'),
  stat(59, 'Substitutions', 'overall'),
  stat(80, 'Passes', 'overall'),
  stat(81, 'Successful Passes', 'overall'),
  stat(82, 'Successful Passes Percentage', 'overall'),
  stat(83, 'Redcards', 'overall'),
  stat(84, 'Yellowcards', 'overall'),
  stat(86, 'Shots On Target', 'offensive'),
  t(129, 'Overall Matches Played', 'OVERALL_MATCHES', 'standings'),
  t(130, 'Overall Won', 'OVERALL_WINS', 'standings'),
  t(131, 'Overall Draw', 'OVERALL_DRAWS', 'standings'),
  t(132, 'Overall Lost', 'OVERALL_LOST', 'standings'),
  t(133, 'Overall Goals For', 'OVERALL_GOALS_FOR', 'standings'),
  t(134, 'Overall Goals Against', 'OVERALL_CONCEDED', 'standings'),
  t(148, 'Centre Back', 'CENTRE_BACK', 'position'),
  t(149, 'Defensive Midfield', 'DEFENSIVE_MIDFIELD', 'position'),
  t(150, 'Attacking Midfield', 'ATTACKING_MIDFIELD', 'position'),
  t(151, 'Centre Forward', 'CENTRE_FORWARD', 'position'),
  t(152, 'Left Wing', 'LEFT_WING', 'position'),
  t(153, 'Central Midfield', 'CENTRAL_MIDFIELD', 'position'),
  t(154, 'Right Back', 'RIGHT_BACK', 'position'),
  t(155, 'Left Back', 'LEFT_BACK', 'position'),
  t(156, 'Right Wing', 'RIGHT_WING', 'position'),
  t(157, 'Left Midfield', 'LEFT_MIDFIELD', 'position'),
  t(158, 'Right Midfield', 'RIGHT_MIDFIELD', 'position'),
  t(163, 'Secondary Striker', 'SECONDARY_STRIKER', 'position'),
  t(179, 'Goal Difference', 'GOAL_DIFFERENCE', 'standings'),
  t(187, 'Overall Points', 'OVERALL_POINTS', 'standings'),
  t(208, 'Goal Topscorer', 'GOAL_TOPSCORER', 'topscorer'),
  t(209, 'Assist Topscorer', 'ASSIST_TOPSCORER', 'topscorer'),
  t(218, 'Loan', 'LOAN', 'transfer'),
  t(219, 'Transfer', 'TRANSFER', 'transfer'),
  t(220, 'Free Transfer', 'FREE_TRANSFER', 'transfer'),
  t(223, 'Group Stage', 'GROUP_STAGE', 'stage'),
  t(224, 'Knock Out', 'KNOCK_OUT', 'stage'),
  t(225, 'Qualifying', 'QUALIFYING', 'stage'),
  t(1525, 'Current', 'CURRENT', 'score'),
  t(1697, 'VAR Card', 'VAR_CARD', 'event'),
  t(5304, 'Expected Goals (xG)', 'EXPECTED_GOALS', 'statistic', 'offensive'),
  t(5314, 'ET 1st Half', 'ET_1ST_HALF', 'period'),
  t(48996, '2nd Half Only', '2ND_HALF_ONLY', 'score')
]
