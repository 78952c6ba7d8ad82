/**
 * The status page (`/status`): polls `GET /v1/status` every 5 s and draws the budget per upstream entity
 * (with a reset countdown ticking every second), the poller, connections and rates, and an hour of 10 s
 * samples as small inline SVG charts (no chart library).
 *
 * While the gateway cannot be reached every figure is marked stale (dimmed, "as of" the last answer) and
 * the line at the top counts down to the next try, so an outage never reads as "Running, 0 s ago".
 * A figure shown twice (a tile and its chart) is the same number: the latest sample's.
 *
 * @typedef {{ t: number, poll_interval_s: number | null, detection_p50_s: number | null, messages_per_s: number,
 *   cache_hit_ratio: number | null }} Sample
 */
import { h, hhmmss } from './lib/format.js'

const REFRESH_MS = 5000
const HOUR_MS = 3600_000

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id))

/** Charts: which sample field, how to print a value. */
const CHARTS = [
  { field: 'poll_interval_s', title: 'Poll interval', unit: (/** @type {number} */ v) => `${v.toFixed(1)} s` },
  { field: 'detection_p50_s', title: 'Detection latency (p50)', unit: (/** @type {number} */ v) => `${v.toFixed(2)} s` },
  { field: 'messages_per_s', title: 'Messages per second', unit: (/** @type {number} */ v) => v.toFixed(v < 10 ? 1 : 0) },
  { field: 'cache_hit_ratio', title: 'Cache hit ratio', unit: (/** @type {number} */ v) => `${Math.round(v * 100)} %`, max: 1 }
]

/** @type {Array<{ entity: string, resetsAt: number, cell: HTMLElement }>} */
let countdowns = []

/** `12 s ago` @param {string | null} iso */
function ago (iso) {
  if (iso === null) return 'never'
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000))
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.floor(s / 60)} min ago` : `${Math.floor(s / 3600)} h ago`
}

/** `42:07` @param {number} ms */
function clock (ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** @param {string} label @param {string} value @param {string} [hint] */
const tile = (label, value, hint) => h('div', { class: 'tile' }, h('dt', { text: label }), h('dd', {}, h('span', { class: 'tile-value', text: value }), hint ? h('span', { class: 'tile-hint', text: hint }) : null))

const SVG = 'http://www.w3.org/2000/svg'
/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg (tag, attrs) {
  const el = document.createElementNS(SVG, tag)
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v))
  return el
}

/**
 * A line-and-area chart of one field over the last hour; gaps where the value is null.
 * @param {Sample[]} samples @param {typeof CHARTS[number]} spec @param {number} now
 */
function chart (samples, spec, now) {
  const W = 300
  const H = 72
  const points = samples.map((s) => ({ t: s.t, v: /** @type {number | null} */ (s[/** @type {keyof Sample} */ (spec.field)]) }))
  const values = points.flatMap((p) => p.v === null ? [] : [p.v])
  const top = spec.max ?? Math.max(...values, 0.001) * 1.15
  const x = (/** @type {number} */ t) => ((t - (now - HOUR_MS)) / HOUR_MS) * W
  const y = (/** @type {number} */ v) => H - 2 - (v / top) * (H - 6)
  /** @type {string[]} */ const lines = []
  /** @type {string[]} */ const areas = []
  let run = /** @type {Array<[number, number]>} */ ([])
  const flush = () => {
    if (run.length === 0) return
    const d = run.map(([px, py], i) => `${i ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`).join('')
    lines.push(d)
    areas.push(`${d}L${(/** @type {[number, number]} */ (run[run.length - 1]))[0].toFixed(1)},${H}L${run[0]?.[0].toFixed(1)},${H}Z`)
    run = []
  }
  for (const p of points) {
    if (p.v === null) flush()
    else run.push([x(p.t), y(p.v)])
  }
  flush()
  // The latest sample's value, as the tile shows it: '–' when that sample has none (no request then).
  const last = points.at(-1)?.v ?? null
  const latest = last === null ? '–' : spec.unit(last)
  const peak = values.length > 0 ? spec.unit(Math.max(...values)) : '–'
  const box = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'spark', role: 'img', 'aria-label': `${spec.title}: now ${latest}, peak ${peak} over the last hour` })
  box.append(svg('line', { x1: 0, x2: W, y1: H - 0.5, y2: H - 0.5, class: 'axis' }))
  for (const d of areas) box.append(svg('path', { d, class: 'area' }))
  for (const d of lines) box.append(svg('path', { d, class: 'line' }))
  return h('figure', { class: 'chart' },
    h('figcaption', {}, h('span', { text: spec.title }), h('span', { class: 'chart-now', text: latest })),
    box,
    h('div', { class: 'chart-axis' }, h('span', { text: '60 min ago' }), h('span', { text: `peak ${peak}` }), h('span', { text: 'now' })))
}

/**
 * Webhook endpoints by state (none configured: no tile).
 * @param {any} w the `webhooks` field of /v1/status
 */
function webhookTile (w) {
  if (w === null || w === undefined || w.endpoints === 0) return []
  const b = w.by_state
  const trouble = b.retrying + b.paused + b.refused
  const detail = trouble === 0 ? `${w.delivering_here} delivered from here` : `${b.retrying} retrying · ${b.paused} paused · ${b.refused} refused`
  return [tile('Webhooks', `${b.active + b.pending}/${w.endpoints}`, detail)]
}

/**
 * Web Push alerts (push not configured: no tile).
 * @param {any} p the `push` field of /v1/status
 */
function pushTile (p) {
  if (p === null || p === undefined) return []
  const n = (/** @type {string} */ k) => p.sent[k] ?? 0
  const trouble = n('rejected') + n('expired')
  const detail = `${n('sent')} sent · ${p.queued} queued${trouble > 0 ? ` · ${trouble} failed` : ''}${n('gone') > 0 ? ` · ${n('gone')} gone` : ''}`
  return [tile('Push alerts', String(p.subscriptions), `${detail} · ${p.sending_here}/${p.shards} shards here`)]
}

/** @param {any} s the /v1/status body */
function render (s) {
  const now = Date.parse(s.now)
  const p = s.poller
  const pollerState = p === null ? 'None' : !p.running ? 'Standby' : p.consecutive_failures > 0 ? 'Failing' : 'Running'
  byId('tiles').replaceChildren(
    tile('Poller', pollerState, p?.running ? `every ${(p.interval_ms / 1000).toFixed(1)} s` : p === null ? 'not on this instance' : 'another instance polls'),
    tile('Live fixtures', String(s.live_fixtures), `${p?.tracked ?? 0} tracked`),
    tile('Connections', String(s.connections.total), `${s.connections.ws} WebSocket · ${s.connections.sse} SSE`),
    tile('Messages / s', s.messages_per_s === null ? '–' : s.messages_per_s.toFixed(1), `${s.subscriptions} subscriptions`),
    tile('Cache hit ratio', s.cache_hit_ratio === null ? '–' : `${Math.round(s.cache_hit_ratio * 100)} %`, s.cache_hit_ratio === null ? 'no passthrough request in the last 10 s' : 'passthrough, last 10 s'),
    ...webhookTile(s.webhooks),
    ...pushTile(s.push))
  byId('charts').replaceChildren(...CHARTS.map((spec) => chart(s.history.samples, spec, now)))

  countdowns = []
  const rows = s.budget.map((/** @type {any} */ b) => {
    const share = b.limit ? Math.min(1, b.remaining / b.limit) : 1
    const bar = h('span', { class: 'meter-fill' })
    bar.style.width = `${(share * 100).toFixed(1)}%`
    if (share < 0.2) bar.classList.add('low')
    const cell = h('td', { class: 'num', text: b.expired ? 'reset' : clock(Date.parse(b.resets_at) - Date.now()) })
    countdowns.push({ entity: b.entity, resetsAt: Date.parse(b.resets_at), cell })
    return h('tr', {},
      h('th', { scope: 'row', text: b.entity }),
      h('td', {}, h('div', { class: 'meter-row' },
        h('span', { class: 'meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': b.limit ?? b.remaining, 'aria-valuenow': b.remaining, 'aria-label': `${b.entity} requests remaining` }, bar),
        h('span', { class: 'meter-text', text: `${b.remaining.toLocaleString()} / ${b.limit === null ? '?' : b.limit.toLocaleString()}` }))),
      cell)
  })
  if (rows.length > 0) byId('budget').replaceChildren(...rows)

  const facts = p === null
    ? [['State', 'No poller on this instance']]
    : [['State', pollerState], ['Interval', `${p.interval_ms} ms`], ['Last poll', ago(p.last_poll_at)], ['Last reconciliation', ago(p.last_reconcile_at)],
        ['Last error', p.last_error ?? 'none'], ['Consecutive failures', String(p.consecutive_failures)], ['Fixtures tracked', String(p.tracked)],
        ['Awaiting final state', String(p.pending_final)]]
  byId('poller').replaceChildren(...facts.map(([k, v]) => h('div', {}, h('dt', { text: k }), h('dd', { text: v }))),
    // The store's cursor, poller or not: one token on a line of its own.
    h('div', { class: 'wide' }, h('dt', { text: 'Event log cursor' }), h('dd', { class: 'cursor', text: s.cursor ?? 'store unreachable' })))
}

/** @param {'live' | 'offline'} state @param {string} text */
function connection (state, text) {
  const el = byId('connection')
  el.dataset.state = state
  const label = /** @type {HTMLElement} */ (el.querySelector('.conn-label'))
  if (label.textContent !== text) label.textContent = text
}

/** When the last answer came (Date.now() time), and when the next try is due. */
let answeredAt = 0
let nextAt = 0
/** @type {string} */
let failure = ''

/** Marks every figure stale while the gateway does not answer, and says since when. */
function drawStale () {
  const stale = failure !== ''
  document.body.toggleAttribute('data-stale', stale)
  for (const id of ['tiles', 'charts', 'budget', 'poller']) {
    if (stale) byId(id).setAttribute('aria-describedby', 'stale')
    else byId(id).removeAttribute('aria-describedby')
  }
  const note = byId('stale')
  note.hidden = !stale
  if (!stale) return
  // An alert: its words change only when the problem does (not every second), so it is said once.
  const since = answeredAt === 0 ? 'No figures yet' : `Stale: figures as of ${hhmmss(new Date(answeredAt))}`
  const text = `${since}. The gateway does not answer (${failure}).`
  if (note.textContent !== text) note.textContent = text
  const secs = Math.max(0, Math.ceil((nextAt - Date.now()) / 1000))
  connection('offline', secs > 0 ? `Cannot reach the gateway · retrying in ${secs} s` : 'Cannot reach the gateway · retrying now')
}

async function refresh () {
  nextAt = Date.now() + REFRESH_MS
  try {
    const res = await fetch('/v1/status', { cache: 'no-store' })
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    render(await res.json())
    answeredAt = Date.now()
    failure = ''
    // The label is a live region: it says only what changes rarely. The time of each refresh goes outside it.
    connection('live', 'Live')
    byId('updated').textContent = ` · updated ${hhmmss(new Date())}`
  } catch (err) {
    failure = /** @type {Error} */ (err).message
  }
  drawStale()
}

setInterval(() => {
  for (const c of countdowns) c.cell.textContent = c.resetsAt <= Date.now() ? 'reset' : clock(c.resetsAt - Date.now())
  if (failure !== '') drawStale()
}, 1000)
setInterval(refresh, REFRESH_MS)
await refresh()
