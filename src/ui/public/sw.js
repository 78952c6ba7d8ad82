/**
 * The scoreboard's service worker (served at `/sw.js`, so its scope is the whole site): goal alerts by Web
 * Push. The page (lib/follow.js) registers it and subscribes its PushManager with the gateway's VAPID
 * public key; the gateway sends one push per alert, its payload JSON:
 * `{ id, kind, title, body, fixture_id, url, tag, sent_at }`.
 *
 * - `push`: shows a notification with the alert's title and body. Its `tag` is the push's Topic, shared by
 *   a goal and its "Goal disallowed", so the second replaces the first on screen (and alerts again).
 * - `notificationclick`: opens the match. A scoreboard tab already open is focused and told which match to
 *   show (a message: no reload, the feed stays connected); without one the match's URL opens in a new tab,
 *   where the page opens the match itself.
 *
 * It caches nothing and serves no request: the scoreboard is live data, read from the gateway each time.
 */

/** @param {unknown} raw the push's payload as text @returns {{ title: string, body: string, tag?: string, url: string, fixture_id?: number, kind?: string, id?: string } | undefined} */
function readAlert (raw) {
  try {
    const alert = JSON.parse(String(raw))
    if (alert === null || typeof alert !== 'object' || typeof alert.title !== 'string') return undefined
    return { ...alert, body: typeof alert.body === 'string' ? alert.body : '', url: typeof alert.url === 'string' ? alert.url : '/' }
  } catch {
    return undefined
  }
}

self.addEventListener('push', (/** @type {any} */ event) => {
  // A push without a readable payload still has to show something (a push that shows nothing is counted
  // against the site by browsers): the scoreboard, generically.
  const alert = readAlert(event.data?.text()) ?? { title: 'touchline', body: 'New match alerts', url: '/' }
  const options = {
    body: alert.body,
    data: { url: alert.url, fixture_id: alert.fixture_id, kind: alert.kind, id: alert.id },
    icon: '/favicon.svg',
    badge: '/favicon.svg',
    timestamp: Date.now()
  }
  if (alert.tag !== undefined) Object.assign(options, { tag: alert.tag, renotify: true })
  event.waitUntil(/** @type {any} */ (self).registration.showNotification(alert.title, options))
})

/**
 * Focuses a scoreboard tab of this site and tells it to open the match, or opens the match's URL.
 * @param {string} url the alert's `url` (the scoreboard, naming the match)
 */
async function openMatch (url) {
  const sw = /** @type {any} */ (self)
  const target = new URL(url, sw.location.origin)
  const open = /** @type {any[]} */ (await sw.clients.matchAll({ type: 'window', includeUncontrolled: true }))
  const tab = open.find((c) => new URL(c.url).pathname === target.pathname) ?? open[0]
  if (tab === undefined) return await sw.clients.openWindow(target.href)
  tab.postMessage({ type: 'open-match', url: target.href })
  // Focusing needs the click's user activation; without it (a click the browser did not deliver) the tab
  // still shows the match.
  try { await tab.focus() } catch { /* not allowed to focus */ }
  return tab
}

self.addEventListener('notificationclick', (/** @type {any} */ event) => {
  event.notification.close()
  const opening = openMatch(event.notification.data?.url ?? '/')
  // A click the browser delivers can be waited for; an event a script dispatched (a test: headless
  // browsers have no notification to click) cannot be extended, and runs to its end all the same.
  if (event.isTrusted) event.waitUntil(opening)
})
