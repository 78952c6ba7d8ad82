/**
 * The status page (`/status`): polls `GET /v1/status` every 5 s and draws the budget per upstream entity
 * (with its burn rate and a reset countdown ticking every second), the livescore and odds pollers side by
 * side, the detection latency, the store, connections, rates, webhooks and Web Push deliveries, and an hour
 * of 10 s samples as small inline SVG charts (no chart library). Every figure is the server's: the page
 * formats them, it computes none (the quantiles, the burn rates and the live count come computed).
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

/**
 * A tile of the Now row; `warn` marks one whose figures say something is wrong (retries, failures, a store down).
 * @param {string} label @param {string} value @param {string} [hint] @param {boolean} [warn]
 */
const tile = (label, value, hint, warn = false) => h('div', { class: 'tile', 'data-warn': warn }, h('dt', { text: label }), h('dd', {}, h('span', { class: 'tile-value', text: value }), hint ? h('span', { class: 'tile-hint', text: hint }) : null))

/** `1,234` @param {number} n */
const num = (n) => n.toLocaleString('en')

/** `0.42 s`, or `–` for none. @param {number | null} s */
const seconds = (s) => s === null ? '–' : `${s < 10 ? s.toFixed(2) : s.toFixed(1)} s`

/** A time as "12 s ago", the instant in its `datetime` (and its tooltip). @param {string | null} iso */
const when = (iso) => iso === null ? 'never' : h('time', { datetime: iso, title: iso, text: ago(iso) })

/**
 * One row of a facts list: a term and its value (text, or an element such as a <time>).
 * @param {string} term @param {string | Node} value @param {string} [cls] the row's class (`wide`: a line of its own)
 */
const fact = (term, value, cls) => h('div', { class: cls }, h('dt', { text: term }), h('dd', {}, value))

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
 * Web Push alerts (push not configured: no tile): the subscriptions, and the deliveries as sent, retrying
 * (waiting to be sent again) and failed (given up), said every time, 0 included.
 * @param {any} p the `push` field of /v1/status
 */
function pushTile (p) {
  if (p === null || p === undefined) return []
  const d = p.deliveries
  const more = `${d.gone > 0 ? ` · ${num(d.gone)} gone` : ''}${d.capped > 0 ? ` · ${num(d.capped)} over the cap` : ''}`
  const detail = `subscriptions · ${num(d.sent)} sent · ${num(d.retrying)} retrying · ${num(d.failed)} failed${more} · ${p.sending_here}/${p.shards} shards here`
  return [tile('Push alerts', num(p.subscriptions), detail, d.retrying + d.failed > 0)]
}

/**
 * The change-detection latency (p50, p95 over the last minutes), as the process that polls measured it.
 * @param {any} d the `detection_latency` field of /v1/status
 */
function latencyTile (d) {
  if (d === null) return tile('Detection latency', '–', 'no process polls')
  if (d.changes === 0) return tile('Detection latency', '–', `no change detected in the last ${span(d.window_s)}`)
  return tile('Detection latency', `p50 ${seconds(d.p50_s)}`, `p95 ${seconds(d.p95_s)} · ${num(d.changes)} changes, last ${span(d.window_s)}`)
}

/** `5 min`, `40 s` @param {number} s */
const span = (s) => s >= 60 ? `${Math.round(s / 60)} min` : `${s} s`

/** `Redis`, `Memory` @param {'memory' | 'redis'} engine */
const engineName = (engine) => engine === 'redis' ? 'Redis' : 'Memory'

/**
 * The store: its engine, whether it answers, its log.
 * @param {any} st the `store` field of /v1/status
 */
function storeTile (st) {
  if (st.status === 'down') return tile('Store', 'Down', `${engineName(st.engine)} · not answering`, true)
  return tile('Store', 'Up', `${engineName(st.engine)} · log ${num(st.log_length ?? 0)} / ${num(st.log_max_length ?? 0)} records`)
}

/**
 * A bucket's burn rate: calls per hour spent now, against its hourly limit.
 * @param {any} b a budget row of /v1/status
 */
function burnCell (b) {
  if (b.burn === null) return h('td', { class: 'burn muted', text: 'measuring…' })
  const share = b.burn.of_limit === null ? null : h('span', { class: 'burn-share', text: `${Math.round(b.burn.of_limit * 100)} % of the limit` })
  const cell = h('td', { class: 'burn' }, h('span', { class: 'burn-rate', text: `${num(b.burn.per_hour)} / h` }), share === null ? null : ' ', share)
  // Spent faster than the limit refills: the bucket runs dry before its reset.
  if (b.burn.of_limit !== null && b.burn.of_limit >= 1) cell.classList.add('over')
  return cell
}

/**
 * Which process polls, as `polled_by` names it: every worker and instance shows the same poller.
 * @param {any} by the `polled_by` field of /v1/status (not null)
 */
function pollerWhere (by) {
  if (by.here) return 'this process'
  return by.worker === null ? `${by.host} (pid ${by.pid})` : `worker ${by.worker} (pid ${by.pid})`
}

/**
 * How a bucket is shared this hour: what the pollers and the passthrough spent, and what the pollers' claims
 * keep until the reset (the passthrough spends only above it).
 * @param {{ spent: { pollers: number, passthrough: number }, pollers_need: number }} b a budget row of /v1/status
 */
function splitText (b) {
  const kept = b.pollers_need > 0 ? ` · ${b.pollers_need.toLocaleString()} kept for the pollers` : ''
  return `pollers ${b.spent.pollers.toLocaleString()} · passthrough ${b.spent.passthrough.toLocaleString()}${kept}`
}

/** The live set by phase, in play first: `2 live · 1 break · 1 scheduled`. @param {Record<string, number>} byPhase */
function phases (byPhase) {
  const order = ['live', 'break', 'suspended', 'unknown', 'scheduled', 'finished', 'postponed', 'cancelled']
  const rank = (/** @type {string} */ p) => order.includes(p) ? order.indexOf(p) : order.length
  return Object.entries(byPhase).sort(([a], [b]) => rank(a) - rank(b)).map(([phase, n]) => `${num(n)} ${phase}`).join(' · ') || 'empty'
}

/** @param {any} s the /v1/status body */
function render (s) {
  const now = Date.parse(s.now)
  const p = s.poller
  const pollerState = p === null ? 'None' : !p.running ? 'Standby' : p.consecutive_failures > 0 ? 'Failing' : 'Running'
  // Which answer the page shows (its `now`): what a figure on screen can be checked against.
  document.body.dataset.now = s.now
  byId('tiles').replaceChildren(
    tile('Poller', pollerState, p === null ? 'no process polls' : `every ${(p.interval_ms / 1000).toFixed(1)} s · ${pollerWhere(s.polled_by)}`),
    // Counted as the scoreboard's Live tab counts them: in play (live, break, suspended, unknown), from the store's live set.
    tile('Live fixtures', s.live_fixtures === null ? '–' : num(s.live_fixtures), s.live_set === null ? 'store unreachable' : `in play · ${num(s.live_set.total)} in the live set`),
    latencyTile(s.detection_latency),
    storeTile(s.store),
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
    return h('tr', { 'data-entity': b.entity },
      h('th', { scope: 'row', text: b.entity }),
      h('td', {}, h('div', { class: 'meter-row' },
        h('span', { class: 'meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': b.limit ?? b.remaining, 'aria-valuenow': b.remaining, 'aria-label': `${b.entity} requests remaining` }, bar),
        h('span', { class: 'meter-text', text: `${b.remaining.toLocaleString()} / ${b.limit === null ? '?' : b.limit.toLocaleString()}` }))),
      h('td', { class: 'split', text: splitText(b) }),
      burnCell(b),
      cell)
  })
  if (rows.length > 0) byId('budget').replaceChildren(...rows)

  const facts = p === null
    ? [fact('State', 'No process polls')]
    : [fact('State', pollerState), fact('Polled by', pollerWhere(s.polled_by)), fact('Budget entity', p.entity), fact('Interval', `${Math.round(p.interval_ms)} ms`),
        fact('Last poll', when(p.last_poll_at)), fact('Last reconciliation', when(p.last_reconcile_at)), fact('Last error', p.last_error ?? 'none'),
        fact('Consecutive failures', String(p.consecutive_failures)), fact('Fixtures tracked', String(p.tracked)), fact('Awaiting final state', String(p.pending_final))]
  byId('poller').replaceChildren(...facts)
  byId('odds-poller').replaceChildren(...oddsFacts(s.odds_poller))
  byId('store').replaceChildren(
    fact('State', s.store.status === 'up' ? 'Up' : 'Down: not answering'),
    fact('Engine', s.store.engine === 'redis' ? 'Redis' : 'Memory (this process)'),
    fact('Event log', s.store.log_length === null ? '–' : `${num(s.store.log_length)} of ${num(s.store.log_max_length)} records`),
    fact('Live set', s.live_set === null ? '–' : `${num(s.live_set.total)}: ${phases(s.live_set.by_phase)}`, 'wide'),
    // The log's head: one token on a line of its own.
    h('div', { class: 'wide' }, h('dt', { text: 'Log head (cursor)' }), h('dd', { class: 'cursor', text: s.cursor ?? 'store unreachable' })))
}

/**
 * The in-play odds poller, beside the livescore poller (it runs where that one does).
 * @param {any} o the `odds_poller` field of /v1/status
 */
function oddsFacts (o) {
  if (o === null) return [fact('State', 'No process polls')]
  const state = !o.running ? 'Standby' : !o.enabled ? 'Off: the plan has no in-play odds' : o.last_error !== null ? 'Failing' : 'Running'
  return [fact('State', state), fact('Budget entity', o.entity), fact('Last poll', when(o.last_poll_at)), fact('Fixtures followed', String(o.tracked)), fact('Last error', o.last_error ?? 'none')]
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
  for (const id of ['tiles', 'charts', 'budget', 'poller', 'odds-poller', 'store']) {
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
