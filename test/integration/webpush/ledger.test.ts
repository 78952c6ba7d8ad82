/**
 * The push senders' memory (src/webpush/ledger.ts) on both engines: one alert id per device once, again only
 * when it is to be retried; the hourly window and its ceilings; the fenced shard cursor; the retry queue.
 */
import { describe, expect, it } from 'vitest'
import { createAlertLedger, type RetryEntry } from '../../../src/webpush/ledger.ts'
import { alertsOf } from '../../../src/webpush/alerts.ts'
import { createLease } from '../../../src/store/index.ts'
import { useRedis } from '../../helpers/redis.ts'

const redis = useRedis()
const [alert] = alertsOf({
  cursor: 'e:1',
  fixture_id: 5,
  live: false,
  league_id: 501,
  at: '2026-11-21T20:00:00.000Z',
  changes: [{ kind: 'fixture_removed' }],
  fixture: JSON.parse(JSON.stringify({ id: 5, league_id: 501, season_id: null, stage_id: null, round_id: null, name: 'A vs B', starting_at: null, state: { id: 5, code: 'FT', name: 'Full Time', phase: 'finished' }, minute: null, period: null, home: { id: 1, name: 'A', short_code: null, image_path: null, score: 1 }, away: { id: 2, name: 'B', short_code: null, image_path: null, score: 0 }, scores: {}, events: [], result_info: null, length: 90, updated_at: '2026-11-21T20:00:00.000Z', version: 1 }))
})

describe.each(['memory', 'redis'] as const)('alert ledger (%s)', (engine) => {
  const ledger = () => engine === 'memory' ? createAlertLedger({ kind: 'memory' }) : createAlertLedger({ kind: 'redis', redis: redis.redis, prefix: redis.prefix })
  const device = 'https://push.example.org/d/1'

  it('claims an alert once per device; a retry may claim it again, a delivered one not', async () => {
    const l = ledger()
    const now = Date.now()
    expect(await l.claim(device, 'f5:goal:e1', 30, now)).toBe('send')
    expect(await l.claim(device, 'f5:goal:e1', 30, now)).toBe('done')
    expect(await l.claim('https://push.example.org/d/2', 'f5:goal:e1', 30, now)).toBe('send')
    await l.mark(device, 'f5:goal:e1', 'r')
    expect(await l.claim(device, 'f5:goal:e1', 30, now)).toBe('send')
    await l.mark(device, 'f5:goal:e1', 'd')
    expect(await l.claim(device, 'f5:goal:e1', 30, now)).toBe('done')
  })

  it('drops an alert once the device\'s hour holds its kind\'s ceiling, for good', async () => {
    const l = ledger()
    const now = Date.now()
    for (let i = 0; i < 4; i++) expect(await l.claim(device, `a${i}`, 30, now + i)).toBe('send')
    expect(await l.claim(device, 'half-time', 4, now + 10)).toBe('capped')
    expect(await l.claim(device, 'half-time', 30, now + 11)).toBe('done')
    expect(await l.claim(device, 'goal', 5, now + 12)).toBe('send')
  })

  it('keeps each shard\'s retries until taken off, due in order', async () => {
    const l = ledger()
    if (alert === undefined) throw new Error('no alert')
    const entry = (endpoint: string): RetryEntry => ({ endpoint, alert, attempt: 1, firstAt: 1000 })
    await l.schedule(0, entry('https://p/1'), 2000)
    await l.schedule(0, entry('https://p/2'), 1000)
    await l.schedule(1, entry('https://p/3'), 1000)
    expect((await l.due(0, 1500, 10)).map((e) => e.endpoint)).toEqual(['https://p/2'])
    expect((await l.due(0, 2500, 10)).map((e) => e.endpoint)).toEqual(['https://p/2', 'https://p/1'])
    expect(await l.queued(2)).toBe(3)
    await l.unschedule(0, entry('https://p/2'))
    expect((await l.due(0, 2500, 10)).map((e) => e.endpoint)).toEqual(['https://p/1'])
    expect((await l.due(0, 2500, 10))[0]?.alert).toEqual(alert)
  })

  it.runIf(engine === 'redis')('stores a shard\'s cursor only for its lease holder', async () => {
    const l = ledger()
    const lease = createLease({ kind: 'redis', redis: redis.redis, prefix: redis.prefix })
    expect(await lease.acquire(l.leaseName(3), 'me', 5000)).toBe(true)
    expect(await l.saveCursor(3, 'me', 'e:10')).toBe(true)
    expect(await l.saveCursor(3, 'someone-else', 'e:11')).toBe(false)
    expect(await l.cursor(3)).toBe('e:10')
  })
})
