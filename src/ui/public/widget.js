/**
 * touchline widget loader: live scores of one league (or one fixture) on any page, in a shadow root.
 *
 *   <div data-touchline-widget></div>
 *   <script src="https://scores.example.com/widget.js" data-league="271" data-key="YOUR_KEY" async></script>
 *
 * Options (on the script tag, or on the placeholder, which wins): data-league (id, or ids separated by
 * commas), data-fixture (id), data-key (client key; default `demo`), data-token-url (instead of a key: a
 * URL of the host site's backend answering a fresh signed connection token, as text or `{ "token": "..." }`,
 * asked with the site's cookies each time one is needed; docs/tokens.md), data-token (instead of a key: a
 * fixed token the page was rendered with, which cannot be renewed), data-theme (`light` | `dark`; default:
 * the reader's prefers-color-scheme), data-title (heading; default: the league's name), data-target (id or
 * selector of the placeholder, for a script that cannot sit right after it), data-odds (a bookmaker id: its
 * full-time result prices on each live row; off by default).
 * Each script renders into its own placeholder: the one its data-target names, else the
 * `[data-touchline-widget]` element right before the script tag, else a new one right after the tag. So
 * several widgets on a page keep their places whatever order their async scripts load in.
 * Theme with CSS custom properties on the placeholder (--tl-bg, --tl-fg, --tl-accent, --tl-font...: see
 * /lib/card.css). The key must allow the host page's origin (`allowed_origins` in the keys file). With a
 * token option no key is read, so none is written into the page.
 *
 * A classic script (so `async` and document.currentScript work everywhere); the widget itself is an ES
 * module imported from the gateway, which serves its scripts with `Access-Control-Allow-Origin: *`.
 */
(function () {
  const current = document.currentScript
  if (!(current instanceof window.HTMLScriptElement) || !current.src) return
  const script = current
  const src = new URL(script.src, location.href)
  const host = placeholder(script) || document.createElement('div')
  if (!host.isConnected) {
    host.setAttribute('data-touchline-widget', '')
    script.insertAdjacentElement('afterend', host)
  }
  host.setAttribute('data-touchline-ready', '')
  /** @param {Element} tag @returns {Element | null} */
  function placeholder (tag) {
    const target = tag.getAttribute('data-target')
    if (target) {
      const named = /^#?[\w-]+$/.test(target) ? document.getElementById(target.replace(/^#/, '')) : document.querySelector(target)
      if (named) return named
    }
    const before = tag.previousElementSibling
    return before && before.hasAttribute('data-touchline-widget') && !before.hasAttribute('data-touchline-ready') ? before : null
  }
  /** @param {string} name */
  function option (name) {
    const value = host.getAttribute('data-' + name)
    return value !== null && value !== '' ? value : script.getAttribute('data-' + name)
  }
  // A token (or where to get one) replaces the key: the key is then not read at all.
  const tokenUrl = option('token-url')
  const token = option('token')
  const config = {
    base: option('gateway') || src.origin,
    key: tokenUrl || token ? null : option('key') || 'demo',
    // Relative to the host page (its backend's route), not to the gateway.
    tokenUrl: tokenUrl ? new URL(tokenUrl, document.baseURI).href : null,
    token: tokenUrl ? null : token,
    league: option('league'),
    fixture: option('fixture'),
    theme: option('theme'),
    title: option('title'),
    odds: option('odds')
  }
  import(new URL('widget/app.js', src).href).then(function (m) { m.mount(host, config) }, function (err) {
    host.textContent = 'Live scores are unavailable.'
    console.error('touchline widget:', err)
  })
})()
