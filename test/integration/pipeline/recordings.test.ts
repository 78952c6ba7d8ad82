import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Change, ChangeRecord } from '../../../src/wire-model/model.ts'
import { changeRecords } from '../../../src/store/types.ts'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import { startPipeline, type Pipeline } from '../../helpers/pipeline.ts'

const RECORDED = new URL('../../fixtures/upstream/recorded/', import.meta.url)
const FILES = ['fixture-19135043-manutd-villa.json', 'fixture-19683241-psg-arsenal-penalties.json']
const recordings = FILES.map((file) => ({ file, json: JSON.parse(readFileSync(new URL(file, RECORDED), 'utf8')) as unknown }))
/** The recordings as the differ sees them: the expected end of each change log. */
const finals = recordings.map((r) => {
  // One recording is a bare fixture, the other a whole response envelope.
  const envelope = r.json !== null && typeof r.json === 'object' && 'data' in r.json ? r.json : { data: r.json }
  const [fixture] = parseFixtures(envelope)
  if (fixture === undefined) throw new Error(`no fixture in ${r.file}`)
  return normalizeFixture(fixture)
})

const GOAL_TYPES = new Set([14, 15, 16])

describe('recorded fixtures replayed through the provider and the pipeline', () => {
  let pipeline: Pipeline
  const logs = new Map<number, ChangeRecord[]>()

  beforeAll(async () => {
    pipeline = await startPipeline('redis', inject('redisUrl'), {
      // 300x: a match minute is 0.2 s, so goals a minute apart are seen apart by a 100 ms poller.
      provider: { simSpeed: 300, liveTarget: 2, replay: recordings, hourlyLimits: { Enterprise: 100_000 } }
    })
    pipeline.poller.start()
    const ids = finals.map((f) => f.id)
    const deadline = Date.now() + 60_000
    for (;;) {
      const done = await pipeline.store.getFixtures(ids)
      if (done.length === ids.length && done.every((f) => f.state.id === finals.find((x) => x.id === f.id)?.state.id && f.result_info !== null)) break
      if (Date.now() > deadline) throw new Error('the replays did not finish in time')
      await sleep(500)
    }
    for (const id of ids) {
      const records: ChangeRecord[] = []
      let cursor: string | undefined
      for (;;) {
        const page = await pipeline.store.readSince(cursor, { fixtures: [id], limit: 1000 })
        records.push(...changeRecords(page.records))
        cursor = page.cursor
        if (!page.more) break
      }
      logs.set(id, records)
    }
  }, 90_000)

  afterAll(async () => { await pipeline?.close() })

  const changesOf = (id: number): Change[] => (logs.get(id) ?? []).flatMap((r) => r.changes)

  it.each(finals.map((f) => [f.name, f] as const))('%s: the log ends in the recorded final state, scores and events', (_name, final) => {
    const records = logs.get(final.id) ?? []
    const last = records.at(-1)?.fixture
    expect(last).toBeDefined()
    expect(last?.state.code).toBe(final.state.code)
    expect(last?.scores).toEqual(final.scores)
    expect([last?.home.score, last?.away.score]).toEqual([final.home.score, final.away.score])
    expect(last?.events).toEqual(final.events)
    expect(last?.result_info).toBe(final.result_info)
  })

  it.each(finals.map((f) => [f.name, f] as const))('%s: one score_changed per goal', (_name, final) => {
    const goals = final.events.filter((e) => GOAL_TYPES.has(e.type_id)).length
    const scoreChanges = changesOf(final.id).filter((c) => c.kind === 'score_changed' && c.score_type === undefined)
    expect(scoreChanges).toHaveLength(goals)
    const last = scoreChanges.at(-1)
    expect(last?.kind === 'score_changed' ? [last.home, last.away] : []).toEqual([final.home.score, final.away.score])
  })

  it('the penalty shoot-out of PSG–Arsenal is visible in the log', () => {
    const psg = finals.find((f) => f.id === 19683241)
    expect(psg).toBeDefined()
    const changes = changesOf(19683241)
    const shootout = changes.filter((c) => c.kind === 'score_changed' && c.score_type === 'penalty_shootout')
    expect(shootout.length).toBeGreaterThan(0)
    const kicks = changes.filter((c) => c.kind === 'event_added' && (c.event.type_id === 22 || c.event.type_id === 23))
    expect(kicks.length).toBe(psg?.events.filter((e) => e.type_id === 22 || e.type_id === 23).length)
    const states = changes.filter((c) => c.kind === 'state_changed').map((c) => c.kind === 'state_changed' ? c.state.code : '')
    expect(states).toEqual(expect.arrayContaining(['INPLAY_ET', 'INPLAY_PENALTIES', 'FT_PEN']))
  })
})
