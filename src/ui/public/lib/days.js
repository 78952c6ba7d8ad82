/**
 * Days as the scoreboard and the widget show them: calendar days in the reader's time zone (the browser's),
 * each the kick-offs from its midnight to the next one there, as the gateway's day model counts them
 * (docs/protocol.md, "Days"). The page names a day by its distance from today (-1 yesterday, 1 tomorrow),
 * so "tomorrow" is the next day whenever it is asked; the gateway holds 3 days back and 3 ahead.
 *
 * A day's fixtures come from the gateway's day model, never from the upstream's rows: the scoreboard and
 * the widget follow their day on the live feed (lib/feed.js, `dates` in this time zone).
 *
 * @typedef {import('./feed.js').LiveFixture} LiveFixture
 * @typedef {number} Day a day by its distance from today: 0 today, -1 yesterday, 1 tomorrow
 * @typedef {{ from: number, to: number }} DayRange kick-offs from `from` (included) to `to` (excluded), epoch ms
 */
import { dateIn, dayRange, localTimeZone } from './client.js'

export { dayRange }

/** The reader's time zone: the days are its days. */
export const TIME_ZONE = localTimeZone()

/** How far the page goes from today: the days the gateway holds (TOUCHLINE_DAYS_BACK and _AHEAD, 3 and 3). */
export const DAYS_BACK = 3
export const DAYS_AHEAD = 3

/** The days with a name, in the address (`#all/yesterday`) and the day switch. */
export const NAMED = /** @type {const} */ ({ yesterday: -1, today: 0, tomorrow: 1 })

const DAY_MS = 86_400_000
const DATE = /^\d{4}-\d{2}-\d{2}$/

/** Today's date (`2026-11-24`) in the reader's time zone. */
export const today = () => dateIn(Date.now(), TIME_ZONE)

/** The date `n` calendar days after `date` (both `YYYY-MM-DD`). @param {string} date @param {number} n */
export const addDays = (date, n) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

/** The date of a day of the reader's. @param {Day} day */
export const dateOfDay = (day) => addDays(today(), day)

/**
 * The day an address names: `yesterday`, `today`, `tomorrow`, or a date the gateway holds (3 back, 3
 * ahead); undefined for anything else.
 * @param {string | undefined} word
 * @returns {Day | undefined}
 */
export function dayOfWord (word) {
  if (word === undefined || word === '') return 0
  if (word in NAMED) return NAMED[/** @type {keyof typeof NAMED} */ (word)]
  if (!DATE.test(word)) return undefined
  const day = Math.round((Date.parse(`${word}T00:00:00Z`) - Date.parse(`${today()}T00:00:00Z`)) / DAY_MS)
  return day >= -DAYS_BACK && day <= DAYS_AHEAD ? day : undefined
}

/** How the address names a day: its name, else its date. @param {Day} day */
export function wordOfDay (day) {
  const named = Object.entries(NAMED).find(([, n]) => n === day)
  return named === undefined ? dateOfDay(day) : named[0]
}

/** `Wednesday 26 November`: a day of the reader's, in words. @param {Day} day */
export function longDate (day) {
  // Noon UTC of the date, written as a UTC date: the calendar day itself, whatever the reader's zone.
  return new Date(`${dateOfDay(day)}T12:00:00Z`).toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
}

/** A day on the scoreboard's strip: `Yesterday`, `Today`, `Tomorrow`, else `Thu 3`. @param {Day} day */
export function shortDate (day) {
  const named = Object.entries(NAMED).find(([, n]) => n === day)
  if (named !== undefined) return named[0].charAt(0).toUpperCase() + named[0].slice(1)
  const noon = new Date(`${dateOfDay(day)}T12:00:00Z`)
  return `${noon.toLocaleDateString([], { weekday: 'short', timeZone: 'UTC' })} ${noon.getUTCDate()}`
}

/** Whether a fixture kicks off in the range. @param {Pick<LiveFixture, 'starting_at'>} f @param {DayRange} range */
export function kicksOffIn (f, range) {
  if (f.starting_at === null) return false
  const ms = Date.parse(f.starting_at)
  return ms >= range.from && ms < range.to
}
