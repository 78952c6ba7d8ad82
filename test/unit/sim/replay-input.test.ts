import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { planReplays, readReplayFiles, REPLAY_GAP_S } from '../../../packages/provider/src/replays.ts'
import { replayInput } from '../../../packages/provider/src/sim/replay-input.ts'

const RECORDED = new URL('../../fixtures/upstream/recorded/', import.meta.url)
const VILLA = new URL('fixture-19135043-manutd-villa.json', RECORDED).pathname
const PSG = new URL('fixture-19683241-psg-arsenal-penalties.json', RECORDED).pathname
const load = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
const bare = (json: Record<string, unknown>): Record<string, unknown> => (json.data ?? json) as Record<string, unknown>

const line = (at: string, path: string, data: unknown, status = 200): Record<string, unknown> => ({ at, path, status, body: { data, subscription: [] } })
const AT = '2026-11-24T15:00:00.000Z'
const LATER = '2026-11-24T15:00:30.000Z'

describe('what --replay accepts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchline-replay-input-'))
  afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

  it('a single fixture response, enveloped or bare, is one fixture to re-script', () => {
    expect(replayInput(load(VILLA))).toEqual({ fixtures: [load(VILLA)], observations: [], feedLists: [], odds: [] })
    expect(replayInput(bare(load(PSG)))).toEqual({ fixtures: [bare(load(PSG))], observations: [], feedLists: [], odds: [] })
  })

  it('a livescores list, enveloped or bare, is each of its fixtures to re-script', () => {
    const fixtures = [bare(load(VILLA)), bare(load(PSG))]
    expect(replayInput({ data: fixtures, subscription: [] }).fixtures).toEqual(fixtures)
    expect(replayInput(fixtures).fixtures).toEqual(fixtures)
  })

  it('a recording is timed observations: livescores in the feed, fixtures by id not, other endpoints and failures left out', () => {
    const villa = bare(load(VILLA))
    const input = replayInput([
      line(AT, '/football/livescores?include=participants', [villa]),
      line(AT, '/football/leagues', [{ id: 8 }]),
      line(LATER, '/football/livescores/latest?include=participants', [{ ...villa, state_id: 3 }]),
      line(LATER, '/football/livescores/latest', [], 429),
      line(LATER, '/football/fixtures/multi/19135043,1', [villa]),
      line(LATER, '/football/fixtures/19135043', villa)
    ])
    expect(input.fixtures).toEqual([])
    expect(input.feedLists).toEqual([Date.parse(AT)])
    expect(input.observations.map((o) => [o.atMs, o.fixture.id, o.fixture.state_id, o.inFeed])).toEqual([
      [Date.parse(AT), 19135043, 5, true],
      [Date.parse(LATER), 19135043, 3, true],
      [Date.parse(LATER), 19135043, 5, false],
      [Date.parse(LATER), 19135043, 5, false]
    ])
    // A one-line recording is a recording too.
    expect(replayInput(line(AT, '/football/livescores', [villa])).observations).toHaveLength(1)
  })

  it('a recording line that is not one is named by its number', () => {
    expect(() => replayInput([line(AT, '/football/livescores', []), { at: 'yesterday', path: '/football/livescores', status: 200, body: {} }])).toThrow(/line 2/)
  })

  it('reads several files, JSON and NDJSON, and quoted wildcards, in name order', () => {
    const villa = bare(load(VILLA))
    const ndjson = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
    writeFileSync(join(dir, 'touchline-2026-11-24T15.ndjson'), ndjson([line(AT, '/football/livescores', [villa])]))
    writeFileSync(join(dir, 'touchline-2026-11-24T16.ndjson'), ndjson([line(LATER, '/football/livescores', [villa]), line(LATER, '/football/livescores/latest', [villa])]))
    writeFileSync(join(dir, 'day.log'), ndjson([line(AT, '/football/livescores', [villa]), line(LATER, '/football/livescores', [villa])]))
    const files = readReplayFiles([join(dir, 'touchline-*.ndjson'), VILLA, join(dir, 'day.log')])
    expect(files.map((f) => f.file)).toEqual([join(dir, 'touchline-2026-11-24T15.ndjson'), join(dir, 'touchline-2026-11-24T16.ndjson'), VILLA, join(dir, 'day.log')])
    expect(files.map((f) => Array.isArray(f.json) ? f.json.length : 'one')).toEqual([1, 2, 'one', 2])
  })

  it('keeps a fixture record that repeats the one before it once, across the hourly files', () => {
    const villa = bare(load(VILLA))
    const ndjson = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
    writeFileSync(join(dir, 'repeat-1.ndjson'), ndjson([line(AT, '/football/livescores', [villa]), line(AT, '/football/livescores', [villa])]))
    writeFileSync(join(dir, 'repeat-2.ndjson'), ndjson([line(LATER, '/football/livescores', [villa]), line(LATER, '/football/livescores', [{ ...villa, state_id: 3 }])]))
    const records = readReplayFiles([join(dir, 'repeat-*.ndjson')]).flatMap((f) => (f.json as Array<{ body: { data: unknown[] } }>).map((l) => l.body.data[0]))
    expect(records[1]).toBe(records[0])
    expect(records[2]).toBe(records[0])
    expect(records[3]).not.toBe(records[0])
    expect(records[3]).toEqual({ ...villa, state_id: 3 })
  })

  it('names a missing file, a wildcard that matches nothing and a file that is not JSON', () => {
    expect(() => readReplayFiles([join(dir, 'missing.json')])).toThrow(/cannot replay .*missing\.json/)
    expect(() => readReplayFiles([join(dir, '*.nothing')])).toThrow(/no file matches/)
    writeFileSync(join(dir, 'broken.ndjson'), '{"at":"2026-11-24T15:00:00Z"}\nnot json\n')
    expect(() => readReplayFiles([join(dir, 'broken.ndjson')])).toThrow(/broken\.ndjson: line 2 is not JSON/)
  })

  it('plans a list and single files as matches kicking off in turn, a fixture in several files once', () => {
    const startMs = Date.parse(AT)
    const plan = planReplays([
      { file: 'list.json', json: { data: [bare(load(VILLA)), bare(load(PSG))] } },
      { file: 'villa.json', json: load(VILLA) }
    ], startMs, 60)
    expect(plan.playback).toBeUndefined()
    expect(plan.scripted.map((r) => [r.input.id, r.input.kickoff])).toEqual([
      [19135043, startMs / 1000 + REPLAY_GAP_S],
      [19683241, startMs / 1000 + REPLAY_GAP_S * 2]
    ])
    expect(plan.teams.map((t) => t.id).sort((a, b) => a - b)).toEqual([14, 15, 19, 591])
  })

  it('says which file and fixture cannot be replayed', () => {
    expect(() => planReplays([{ file: 'list.json', json: { data: [{ id: 7, name: 'no participants' }] } }], 0)).toThrow(/cannot replay list\.json \(fixture 7\): invalid fixture recording/)
  })
})
