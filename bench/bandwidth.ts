/**
 * npm run bench:bandwidth — bytes and frames per subscriber for one simulated match day, in `full` and
 * `delta` format, before and after the clock coalescing (clients run the clock), from the same simulated day.
 *
 *   npx tsx bench/bandwidth.ts [--minutes 240] [--speed 1]
 *
 * The day runs through the real pipeline (embedded provider over HTTP, poller, memory store; only the clock
 * is virtual, see test/helpers/match-day.ts) twice: once storing every clock tick (before: each tick of each
 * fixture a record, as main did) and once as now (ticks a running clock shows are not stored). Each
 * record is then framed as the hub frames it (Outgoing, with the previous version the hub would hold) for
 * three subscribers: every league, the busiest league, the busiest fixture. The last column frames the same
 * day's deltas as they were before `goal_ids` (each goal sent whole twice), for a side-by-side figure, and the
 * full frames without the match centre (statistics and line-ups), for what it costs a `full` subscriber.
 */
import { Outgoing } from '../src/fanout/outgoing.ts'
import type { Format } from '../src/wire-model/model.ts'
import { fixtureIdOf, type LogRecord } from '../src/store/types.ts'
import { createStore } from '../src/store/index.ts'
import { runMatchDay } from '../test/helpers/match-day.ts'
import { LastVersions } from '../src/protocol/frames.ts'
import { inLiveSet } from '../src/protocol/filter.ts'

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  const value = i >= 0 ? Number(process.argv[i + 1]) : dflt
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`)
  return value
}
const minutes = arg('minutes', 240)
const speed = arg('speed', 1)

async function day (everyTick: boolean): Promise<Outgoing[]> {
  const store = createStore({ kind: 'memory' })
  const versions = new LastVersions()
  const outs: Outgoing[] = []
  await store.subscribe((record, json) => { outs.push(Outgoing.of(record, json, versions.swap(record))) })
  await runMatchDay(store, { minutes, simSpeed: speed, everyTick })
  return outs
}

interface Tally { frames: number, bytes: number }

function tally (outs: Outgoing[], match: (r: LogRecord) => boolean, format: Format, reframe: (json: string) => string = (json) => json): Tally {
  let frames = 0
  let bytes = 0
  for (const out of outs) {
    if (!match(out.record)) continue
    frames++
    bytes += Buffer.byteLength(reframe(out.bytes('ws', format).toString('utf8')))
  }
  return { frames, bytes }
}

/** A full frame without the match centre (the fixture's statistics and line-ups), as frames were before it. */
function withoutMatchCentre (json: string): string {
  const frame = JSON.parse(json) as { fixture?: Record<string, unknown> }
  if (frame.fixture === undefined) return json
  const { statistics: _s, lineups: _l, ...fixture } = frame.fixture
  return JSON.stringify({ ...frame, fixture })
}

/**
 * A delta frame as it was before `goal_ids`: each `score_changed` carried its goals whole beside the
 * `event_added` of each, so a goal went twice. The same frame otherwise, for a side-by-side figure.
 */
function goalsTwice (json: string): string {
  const frame = JSON.parse(json) as { changes?: Array<Record<string, any>> }
  if (frame.changes === undefined || !frame.changes.some((c) => c.goal_ids !== undefined)) return json
  const added = new Map(frame.changes.filter((c) => c.kind === 'event_added').map((c) => [c.event.id, c.event]))
  frame.changes = frame.changes.map(({ goal_ids: ids, ...c }) => ids === undefined ? c : { ...c, goals: (ids as number[]).map((id) => added.get(id)) })
  return JSON.stringify(frame)
}

function busiest (outs: Outgoing[], key: (r: LogRecord) => number): number {
  const counts = new Map<number, number>()
  for (const { record } of outs) counts.set(key(record), (counts.get(key(record)) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0
}

const started = Date.now()
const before = await day(true)
const after = await day(false)
const league = busiest(after.filter((o) => inLiveSet(o.record)), (r) => r.league_id)
const fixture = busiest(after.filter((o) => inLiveSet(o.record)), (r) => fixtureIdOf(r))
// What each subscriber receives: the live set's changes by league; a fixture's, whatever they are.
const subscribers: Array<[string, (r: LogRecord) => boolean]> = [
  ['all leagues', (r) => inLiveSet(r)],
  [`league ${league}`, (r) => inLiveSet(r) && r.league_id === league],
  [`fixture ${fixture}`, (r) => fixtureIdOf(r) === fixture]
]
const kb = (n: number): string => `${(n / 1024).toFixed(0)} KiB`
const pct = (a: number, b: number): string => b === 0 ? 'n/a' : `${(100 * a / b).toFixed(1)} %`
console.log(`bandwidth per subscriber, one simulated match day: ${minutes} min at ${speed}x (${((Date.now() - started) / 1000).toFixed(0)} s to run)`)
console.log(`records: before ${before.length}, after ${after.length}\n`)
console.log('| subscriber | full before | full after | delta after | delta / full after | delta / full before | delta with goals sent twice / full after | full after without the match centre |')
console.log('|---|---|---|---|---|---|---|---|')
for (const [name, match] of subscribers) {
  const fullBefore = tally(before, match, 'full')
  const fullAfter = tally(after, match, 'full')
  const delta = tally(after, match, 'delta')
  const twice = tally(after, match, 'delta', goalsTwice)
  const bare = tally(after, match, 'full', withoutMatchCentre)
  const cell = (t: Tally): string => `${t.frames} frames, ${kb(t.bytes)}`
  console.log(`| ${name} | ${cell(fullBefore)} | ${cell(fullAfter)} | ${cell(delta)} | bytes ${pct(delta.bytes, fullAfter.bytes)} | bytes ${pct(delta.bytes, fullBefore.bytes)}, frames ${pct(delta.frames, fullBefore.frames)} | ${kb(twice.bytes)}, ${pct(twice.bytes, fullAfter.bytes)} | ${kb(bare.bytes)} |`)
}

/** What the stored records of the day are made of: frames by the set of change kinds they carry. */
const shapes = new Map<string, number>()
for (const { record } of after) {
  const shape = [...new Set(record.changes.map((c) => c.kind))].sort().join('+')
  shapes.set(shape, (shapes.get(shape) ?? 0) + 1)
}
console.log('\nframes (after) by the change kinds they carry:')
for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${shape}`)
