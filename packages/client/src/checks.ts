/**
 * What the client checks before anything is sent: a gateway URL it can connect to, and a subscribe the
 * gateway would take. A mistake an app makes (a URL without its scheme, a kind that does not exist, an id
 * that is not one) throws at once, naming it, instead of surfacing later as an `error` frame, or never.
 */
import { SUBSCRIBED_KINDS, type SubscribedKind } from '@touchline/core'

const KINDS: ReadonlySet<string> = new Set(SUBSCRIBED_KINDS)

/** The longest odds conflation the gateway takes, ms (its `conflate_ms` maximum). */
export const MAX_CONFLATE_MS = 10_000

/**
 * The gateway's origin, without a trailing slash: `http(s)://host[:port][/path]`, or the `ws(s)://` the socket
 * uses, taken as its `http(s)` counterpart.
 * @throws TypeError for anything else (a URL without a scheme such as `127.0.0.1:8080` reads as scheme `127.0.0.1:`)
 */
export function gatewayBase (url: unknown): string {
  const text = String(url ?? '').trim()
  let parsed: URL | undefined
  try { parsed = new URL(text) } catch {}
  if (parsed === undefined || !['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol) || parsed.host === '') {
    throw new TypeError(`url must be the gateway's http:// or https:// address, e.g. http://127.0.0.1:8080 (got ${JSON.stringify(text)})`)
  }
  return text.replace(/^ws/, 'http').replace(/\/+$/, '')
}

/**
 * Fixture, league or team ids as a subscribe sends them.
 * @throws TypeError for a list that is not one, or an entry that is not a positive whole number
 */
export function idList (list: unknown, field: string): number[] {
  if (list === undefined) return []
  if (!Array.isArray(list)) throw new TypeError(`${field} must be an array of ids${field === 'leagues' ? ' or "*"' : ''} (got ${JSON.stringify(list)})`)
  return list.map((id) => {
    const n = typeof id === 'string' && id.trim() !== '' ? Number(id) : id
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new TypeError(`${field} holds ${JSON.stringify(id)}, which is not an id (a positive whole number)`)
    return n
  })
}

/**
 * A `kinds` filter.
 * @throws TypeError for an empty list or a kind the protocol does not have (e.g. `goal`: use `score_changed`)
 */
export function kindList (kinds: unknown): SubscribedKind[] {
  if (!Array.isArray(kinds) || kinds.length === 0) throw new TypeError(`kinds must be a non-empty array of change kinds (got ${JSON.stringify(kinds)})`)
  const unknown = kinds.filter((k) => typeof k !== 'string' || !KINDS.has(k))
  if (unknown.length > 0) throw new TypeError(`kinds holds ${unknown.map((k) => JSON.stringify(k)).join(', ')}, not a change kind; the kinds are ${SUBSCRIBED_KINDS.join(', ')}`)
  return kinds as SubscribedKind[]
}

/**
 * An odds conflation interval.
 * @throws RangeError outside 0 to MAX_CONFLATE_MS whole milliseconds
 */
export function conflation (ms: unknown): number {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0 || ms > MAX_CONFLATE_MS) {
    throw new RangeError(`conflateMs must be a whole number of milliseconds from 0 to ${MAX_CONFLATE_MS} (got ${JSON.stringify(ms)})`)
  }
  return ms
}

/**
 * A format.
 * @throws TypeError for anything but `full` and `delta`
 */
export function formatOf (format: unknown): 'full' | 'delta' | undefined {
  if (format === undefined || format === 'full' || format === 'delta') return format
  throw new TypeError(`format must be "full" or "delta" (got ${JSON.stringify(format)})`)
}

/** Whether cursor `a` comes after cursor `b` in the same log (`<epoch>:<offset>`); false across epochs. */
export function cursorAfter (a: string, b: string): boolean {
  const [ea, oa] = splitCursor(a)
  const [eb, ob] = splitCursor(b)
  return ea !== undefined && ea === eb && oa > ob
}

function splitCursor (cursor: string): [string | undefined, number] {
  const at = cursor.lastIndexOf(':')
  const offset = Number(cursor.slice(at + 1))
  return at <= 0 || !Number.isSafeInteger(offset) ? [undefined, 0] : [cursor.slice(0, at), offset]
}
