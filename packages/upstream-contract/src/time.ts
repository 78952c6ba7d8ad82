/**
 * Datetimes as the upstream writes them (`YYYY-MM-DD HH:MM:SS`, no offset) in a requested `timezone`
 * (docs/upstream.md, "select, filters and other options"). Shared by the embedded provider and the REST passthrough's live answers.
 */

/**
 * Formatters by the zone's own name (what Intl resolves a spelling to): one per real zone at most. A
 * formatter holds about 30 KB of ICU memory, and Intl takes a zone in any letter case, so keyed by the
 * spelling a client sent they would grow without bound.
 */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>()
/** Spellings seen, to the zone's own name; capped, the next ones resolved again each time. */
const SPELLINGS = new Map<string, string>()
const MAX_SPELLINGS = 1000

const formatter = (timeZone: string): Intl.DateTimeFormat =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })

function zoneFormatter (timeZone: string): Intl.DateTimeFormat {
  const known = SPELLINGS.get(timeZone)
  if (known !== undefined) return FORMATTERS.get(known) as Intl.DateTimeFormat
  const made = formatter(timeZone)
  const name = made.resolvedOptions().timeZone
  let f = FORMATTERS.get(name)
  if (f === undefined) FORMATTERS.set(name, f = made)
  if (SPELLINGS.size < MAX_SPELLINGS) SPELLINGS.set(timeZone, name)
  return f
}

/** How many zone formatters are held (one per zone whatever its spellings). */
export const zoneFormatters = (): number => FORMATTERS.size

/** Formats unix seconds as `YYYY-MM-DD HH:MM:SS` in a time zone (the real API's format, no offset). */
export function formatInZone (unixSeconds: number, timeZone: string): string {
  if (timeZone === 'UTC') return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
  const parts = zoneFormatter(timeZone).formatToParts(new Date(unixSeconds * 1000))
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour') === '24' ? '00' : get('hour')}:${get('minute')}:${get('second')}`
}
