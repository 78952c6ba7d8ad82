/**
 * The connection in a fan's words, for the page's pill and the widget's footer line: what it waits for and
 * when it tries again, why it stopped (said once), and what the live region says when it changes. Never a
 * host, a port or an error code: the client library's own messages are for developers (the widget writes
 * them to the console).
 *
 * @typedef {import('./feed.js').FeedStatus} FeedStatus
 */

/** Why a connection waits, in a fan's words: never a host or a port. */
const WAIT_REASONS = {
  unreachable: 'No connection',
  offline: 'Offline',
  unavailable: 'Scores paused',
  forbidden: 'Not allowed',
  too_many_connections: 'Too busy'
}

/**
 * The connection in a few words, for the page's pill and the widget's footer: `Live`, `Reconnecting in
 * 4 s` (counted down by the caller), `No connection · retrying in 4 s`, `Not connected` (refused; the
 * reason is said once elsewhere, by problemText).
 * @param {FeedStatus} s
 * @param {number} [retryAt] when the next attempt is due (Date.now() time)
 */
export function connectionText (s, retryAt) {
  if (s.state === 'live') return 'Live'
  if (s.state === 'connecting') return 'Connecting…'
  if (s.state === 'refused' || s.state === 'closed') return 'Not connected'
  const secs = retryAt === undefined ? undefined : Math.max(0, Math.ceil((retryAt - Date.now()) / 1000))
  const reason = s.state === 'offline' ? WAIT_REASONS.offline : WAIT_REASONS[/** @type {keyof typeof WAIT_REASONS} */ (s.reason ?? '')]
  if (reason === undefined) return secs === undefined ? 'Reconnecting…' : secs === 0 ? 'Reconnecting now…' : `Reconnecting in ${secs} s`
  return `${reason} · ${secs === undefined || secs === 0 ? 'retrying now' : `retrying in ${secs} s`}`
}

/** Why live scores cannot be shown, by refusal, for a fan (`page`) or on someone's site (`widget`). */
const REFUSED = {
  unauthorized: { page: 'Live scores can\'t be shown: the key in this address is not valid (bad key).', widget: 'The widget\'s key is not valid.' },
  revoked: { page: 'Live scores can\'t be shown: this key has been withdrawn.', widget: 'The widget\'s key has been withdrawn.' },
  origin_refused: { page: 'Live scores can\'t be shown on this site: its key does not allow it.', widget: 'This site may not show these scores.' },
  forbidden: { page: 'Live scores can\'t be shown: this key covers none of these leagues.', widget: 'The key does not cover this league.' },
  too_many_connections: { page: 'Too many pages are open with this key; close one and try again.', widget: 'Too many widgets use this key.' }
}

/**
 * The one sentence saying why nothing live can be shown (a refusal), or '' when the connection is fine or
 * only waiting to retry.
 * @param {FeedStatus} s
 * @param {'page' | 'widget'} audience
 */
export function problemText (s, audience) {
  if (s.state !== 'refused') return ''
  const words = REFUSED[/** @type {keyof typeof REFUSED} */ (s.reason ?? '')]
  return words?.[audience] ?? s.message ?? 'Live scores can\'t be shown here.'
}

/**
 * What the live region says when the connection changes (once per change, never the countdown).
 * @param {FeedStatus} s
 * @param {FeedStatus | undefined} before
 */
export function connectionAnnouncement (s, before) {
  if (before === undefined || before.state === s.state) return ''
  if (s.state === 'live') return before.state === 'connecting' ? '' : 'Live scores are back.'
  if (s.state === 'reconnecting' || s.state === 'offline') return before.state === 'live' ? 'Connection lost: the scores may be out of date. Reconnecting.' : ''
  return ''
}
