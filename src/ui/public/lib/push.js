/**
 * The scoreboard's side of goal alerts by Web Push: the gateway's VAPID public key, the service worker
 * (`/sw.js`, scope `/`), this browser's PushSubscription, and what it follows as the gateway stores it
 * (`/v1/push/subscriptions`, the endpoint being the subscription's identity). The bells and the settings
 * panel that drive it are lib/follow.js.
 *
 * @typedef {{ teams: number[], fixtures: number[], leagues: number[] }} Followed
 * @typedef {{ follow: Followed, kinds: string[], muted: number[] }} AlertChoice
 */
import { withCredential } from './credential.js'

/** The alert kinds a subscription may ask for, with their names on screen. `goal` brings "Goal disallowed". */
export const KINDS = /** @type {const} */ ([
  ['goal', 'Goals'], ['red_card', 'Red cards'], ['kick_off', 'Kick-off'], ['half_time', 'Half time'], ['full_time', 'Full time']
])

/**
 * The match an alert's URL opens: the scoreboard with `?fixture=<fixture id>` (`?match=` is taken too).
 * @param {string} url @returns {number | undefined}
 */
export function matchInUrl (url) {
  const u = new URL(url, location.href)
  const raw = u.searchParams.get('fixture') ?? u.searchParams.get('match')
  const id = Number(raw)
  return raw !== undefined && raw !== null && Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/** Why alerts could not be turned on, in a fan's words. */
export class AlertsError extends Error {}

/** @param {string} b64 base64url @returns {Uint8Array} */
function fromBase64Url (b64) {
  const text = atob(b64.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(b64.length / 4) * 4, '='))
  return Uint8Array.from(text, (c) => c.charCodeAt(0))
}

export class PushChannel {
  /**
   * @param {string} base gateway origin
   * @param {{ key: string } | { token: () => string | undefined }} credential the client key (sent as
   *   `api_token`), or the fan's current signed token (sent as `Authorization: Bearer`; the push routes then
   *   manage this fan's devices only)
   */
  constructor (base, credential) {
    this.base = base
    this.credential = credential
    /** @type {string | undefined} the VAPID public key, once the gateway said it */ this.publicKey = undefined
    /** @type {Promise<any> | undefined} the service worker's registration */ this.registration = undefined
    /** @type {any} this browser's PushSubscription, once known */ this.subscription = undefined
  }

  /**
   * A request to a push route with the page's credential.
   * @param {string} path @param {string} [endpoint] @param {RequestInit} [init]
   */
  request (path, endpoint, init) {
    const url = `${this.base}${path}${endpoint === undefined ? '' : `?endpoint=${encodeURIComponent(endpoint)}`}`
    const c = this.credential
    return withCredential(url, 'key' in c ? c : { token: c.token() ?? '' }, init)
  }

  /**
   * Whether alerts can be offered here: the browser has service workers, Push and notifications, and the
   * gateway has a VAPID key (its page's `touchline-push` meta says `off` when not; elsewhere, as in the
   * widget, a 404 says so). Registers the service worker.
   * @returns {Promise<boolean>}
   */
  async start () {
    const w = /** @type {any} */ (window)
    if (!('serviceWorker' in navigator) || w.PushManager === undefined || w.Notification === undefined) return false
    // The page says when the gateway offers no push: no request for a key it does not have.
    if (document.querySelector('meta[name="touchline-push"]')?.getAttribute('content') === 'off') return false
    const body = await fetch(`${this.base}/v1/push/key`).then((res) => res.ok ? res.json() : undefined).catch(() => undefined)
    if (typeof body?.public_key !== 'string') return false
    this.publicKey = body.public_key
    this.registration = navigator.serviceWorker.register('/sw.js', { scope: '/' })
    this.registration.catch(() => {})
    return true
  }

  /**
   * What the gateway holds for this browser's subscription: undefined when it has none (or the browser
   * has no subscription yet).
   * @returns {Promise<AlertChoice | undefined>}
   */
  async stored () {
    const reg = await this.registration
    const sub = this.subscription ?? await reg?.pushManager.getSubscription()
    if (sub === null || sub === undefined) return undefined
    this.subscription = sub
    const { url, init } = this.request('/v1/push/subscriptions', sub.endpoint)
    const res = await fetch(url, init).catch(() => undefined)
    return res?.ok === true ? await res.json().catch(() => undefined) : undefined
  }

  /**
   * Sends what this browser follows (asking for permission to notify and subscribing first when needed).
   * @param {AlertChoice} choice
   */
  async save (choice) {
    const sub = await this.subscribe()
    let res
    try {
      const { url, init } = this.request('/v1/push/subscriptions', undefined, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: sub.toJSON(), ...choice })
      })
      res = await fetch(url, init)
    } catch {
      throw new AlertsError('The gateway could not be reached: alerts were not saved.')
    }
    if (!res.ok) throw new AlertsError(`The gateway did not save the alerts (${res.status}).`)
  }

  /** This browser follows nothing any more: the gateway forgets its subscription. */
  async forget () {
    const reg = await this.registration
    const sub = this.subscription ?? await reg?.pushManager.getSubscription()
    if (sub === null || sub === undefined) return
    const { url, init } = this.request('/v1/push/subscriptions', sub.endpoint, { method: 'DELETE' })
    const res = await fetch(url, init).catch(() => undefined)
    if (res === undefined || (!res.ok && res.status !== 404)) throw new AlertsError('The gateway could not be reached: alerts are still on.')
  }

  /** Permission to notify, then this browser's subscription (made with the gateway's key when there is none). */
  async subscribe () {
    const N = /** @type {any} */ (window).Notification
    const permission = N.permission === 'default' ? await N.requestPermission() : N.permission
    if (permission !== 'granted') throw new AlertsError('Notifications are blocked for this site: allow them in the browser\'s settings to get alerts.')
    const reg = await this.registration
    if (reg === undefined) throw new AlertsError('This browser cannot receive alerts.')
    await navigator.serviceWorker.ready
    const existing = this.subscription ?? await reg.pushManager.getSubscription()
    if (existing !== null && existing !== undefined) return (this.subscription = existing)
    const options = { userVisibleOnly: true, applicationServerKey: fromBase64Url(this.publicKey ?? '') }
    try {
      this.subscription = await reg.pushManager.subscribe(options)
    } catch {
      throw new AlertsError('This browser could not subscribe to alerts (no push service).')
    }
    return this.subscription
  }
}
