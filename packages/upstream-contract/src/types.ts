/** Type ids of the real upstream used by scores, events and periods (docs/upstream.md, "Event types"). */

export const ScoreType = {
  FIRST_HALF: 1,
  SECOND_HALF: 2,
  ET: 3,
  PENALTY_SHOOTOUT: 5,
  ET_2ND_HALF: 39,
  CURRENT: 1525,
  ET_1ST_HALF: 5314,
  SECOND_HALF_ONLY: 48996
} as const

export const SCORE_DESCRIPTIONS: Readonly<Record<number, string>> = {
  1: '1ST_HALF', 2: '2ND_HALF', 3: 'ET', 5: 'PENALTY_SHOOTOUT', 39: 'ET_2ND_HALF', 1525: 'CURRENT', 5314: 'ET_1ST_HALF', 48996: '2ND_HALF_ONLY'
}

export const EventType = {
  VAR: 10,
  GOAL: 14,
  OWNGOAL: 15,
  PENALTY: 16,
  MISSED_PENALTY: 17,
  SUBSTITUTION: 18,
  YELLOWCARD: 19,
  REDCARD: 20,
  YELLOWREDCARD: 21,
  PENALTY_SHOOTOUT_MISS: 22,
  PENALTY_SHOOTOUT_GOAL: 23,
  VAR_CARD: 1697
} as const

export const PeriodType = {
  FIRST_HALF: 1,
  SECOND_HALF: 2,
  EXTRA_TIME: 3,
  PENALTIES: 5,
  ET_2ND_HALF: 39,
  ET_1ST_HALF: 5314
} as const
