/**
 * The scoreboard's days: yesterday's, today's and tomorrow's fixtures of the followed leagues, read from
 * the gateway's REST passthrough (answered from its cache) when first shown, and today's read again every
 * minute. What the live feed knows is newer than any of it: the page lays the feed's fixtures over these.
 *
 * @typedef {import('./live.js').LiveFixture} LiveFixture
 * @typedef {'yesterday' | 'today' | 'tomorrow'} Day
 */
import { fetchDay, localDate } from './schedule.js'

/** Days the page switches between, by their distance from today. */
export const DAYS = /** @type {const} */ ({ yesterday: -1, today: 0, tomorrow: 1 })

/** How long a day's list is reused: today's changes (the feed covers what is live), the others hardly do. */
const MAX_AGE_MS = { yesterday: 10 * 60_000, today: 60_000, tomorrow: 10 * 60_000 }

/** How long a failed read holds the next one back. */
const RETRY_MS = 5_000

/** `2026-11-24` of a day of the reader's. @param {Day} day */
export const dateOfDay = (day) => localDate(DAYS[day])

/** `Wednesday 26 November` of a day of the reader's. @param {Day} day */
export function longDate (day) {
  const d = new Date()
  d.setDate(d.getDate() + DAYS[day])
  return d.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long' })
}

export class Days {
  /**
   * @param {string} base gateway origin @param {string} key
   * @param {() => number[]} leagues the leagues to read
   */
  constructor (base, key, leagues) {
    this.base = base
    this.key = key
    this.leagues = leagues
    /** @type {Map<string, { fixtures: LiveFixture[], at: number }>} by date */ this.loaded = new Map()
    /** @type {Map<string, Promise<void>>} */ this.pending = new Map()
  }

  /** The day's fixtures as last read, or undefined before the first read. @param {Day} day */
  get (day) {
    return this.loaded.get(dateOfDay(day))?.fixtures
  }

  /**
   * Reads a day unless a recent enough read is held; resolves once it is (a read in flight is shared), or
   * RETRY_MS after the read failed. Never rejects.
   * @param {Day} day
   * @returns {Promise<void>}
   */
  load (day) {
    const date = dateOfDay(day)
    const hit = this.loaded.get(date)
    if (hit !== undefined && Date.now() - hit.at < MAX_AGE_MS[day]) return Promise.resolve()
    const inFlight = this.pending.get(date)
    if (inFlight !== undefined) return inFlight
    const read = fetchDay(this.base, this.key, this.leagues(), date)
      .then((fixtures) => { this.loaded.set(date, { fixtures, at: Date.now() }) },
        // Unreadable (the gateway down, the link cut): the day keeps what it had, and the load settles only
        // after a pause, so a caller that loads again when it settles (a page still showing "loading")
        // asks every RETRY_MS, not in a loop.
        async () => { await new Promise((resolve) => setTimeout(resolve, RETRY_MS)) })
      .finally(() => { this.pending.delete(date) })
    this.pending.set(date, read)
    return read
  }
}
