/**
 * Datetimes as the upstream writes them (`YYYY-MM-DD HH:MM:SS`, no offset) in a requested `timezone`
 * (spec 4.1). Shared by the embedded provider and the REST passthrough's live answers.
 */

const FORMATTERS = new Map<string, Intl.DateTimeFormat>()

function zoneFormatter (timeZone: string): Intl.DateTimeFormat {
  let f = FORMATTERS.get(timeZone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
    FORMATTERS.set(timeZone, f)
  }
  return f
}

/** Formats unix seconds as `YYYY-MM-DD HH:MM:SS` in a time zone (the real API's format, no offset). */
export function formatInZone (unixSeconds: number, timeZone: string): string {
  if (timeZone === 'UTC') return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')
  const parts = zoneFormatter(timeZone).formatToParts(new Date(unixSeconds * 1000))
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00'
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour') === '24' ? '00' : get('hour')}:${get('minute')}:${get('second')}`
}
