import { describe, expect, it } from 'vitest'
import { anchoredClock, clockMinute, isPredictedTick, settleClock } from '../../../src/protocol/clock.ts'
import type { ChangeRecord, LiveFixture } from '../../../src/wire-model/model.ts'
import { isChangeRecord } from '../../../src/store/types.ts'
import { createStore } from '../../../src/store/index.ts'
import { runMatchDay } from '../../helpers/match-day.ts'
import { fixture } from '../../integration/store/fixture.ts'

const T0 = Date.parse('2026-11-21T19:20:00.000Z')
const running = (atMs: number, minute: number, second: number | null, rate = 1): LiveFixture =>
  fixture(1, 271, { minute, clock: anchoredClock({ atMs, minute, second, rate }, { counts_from: 0, length: 45, added: null, ticking: true }) })

describe('the match clock', () => {
  it('shows the reported minute at its anchor, then runs at its rate', () => {
    const f = running(T0, 20, 15)
    expect(clockMinute(f, T0)).toBe(20)
    expect(clockMinute(f, T0 + 44_000)).toBe(20)
    expect(clockMinute(f, T0 + 45_000)).toBe(21)
    expect(clockMinute(f, T0 + 10 * 60_000)).toBe(30)
    const fast = running(T0, 20, 15, 60)
    expect(clockMinute(fast, T0 + 10_000)).toBe(30)
    // Not running: the fixture's own minute.
    expect(clockMinute({ minute: 45, clock: null }, T0 + 60_000)).toBe(45)
  })

  it('keeps the stored anchor while it shows the reported minute, and drops predicted ticks', () => {
    const prev = running(T0, 20, 15)
    const later = T0 + 60_000
    const next = running(later, 21, 20)
    const settled = settleClock(prev, next, later)
    expect(settled.clock).toEqual(prev.clock)
    expect(isPredictedTick(prev, settled, [{ kind: 'clock', minute: 21, previous: 20 }], later)).toBe(true)
    // The clock was wrong (play stopped for a while upstream): the new anchor is a correction.
    const behind = running(later + 5 * 60_000, 22, 0)
    expect(settleClock(prev, behind, later + 5 * 60_000)).toBe(behind)
    expect(isPredictedTick(prev, behind, [{ kind: 'clock', minute: 22, previous: 20, clock: behind.clock }], later + 5 * 60_000)).toBe(false)
    // Added time announced: the clock changed even though the minute did not.
    const added = { ...next, clock: { ...next.clock!, added: 3 } }
    expect(settleClock(prev, added, later)).toBe(added)
  })
})

describe('the match clock over a simulated match day', async () => {
  const store = createStore({ kind: 'memory' })
  const records: ChangeRecord[] = []
  await store.subscribe((r) => { if (isChangeRecord(r)) records.push(r) })
  await runMatchDay(store, { minutes: 20 })

  it('a client running the clock shows the stored minute at every change, told or not', () => {
    const held = new Map<number, LiveFixture>()
    let predicted = 0
    for (const r of records) {
      const at = Date.parse(r.at)
      // Told: the clock the record carries shows its minute.
      expect(clockMinute(r.fixture, at)).toBe(r.fixture.minute)
      const prev = held.get(r.fixture_id)
      const corrected = r.changes.some((c) => c.kind === 'clock' && c.clock !== undefined)
      // Not told: no clock correction in the record, so the clock the client held showed the minute already.
      if (prev?.clock?.ticking === true && !corrected) {
        expect(clockMinute(prev, at)).toBe(r.fixture.minute)
        predicted++
      }
      held.set(r.fixture_id, r.fixture)
    }
    expect(predicted).toBeGreaterThan(100)
  })

  it('stores no tick a running clock shows anyway: clock-only records are a small share of the day', () => {
    const clockOnly = records.filter((r) => r.changes.every((c) => c.kind === 'clock'))
    expect(clockOnly.length).toBeLessThan(records.length * 0.2)
    expect(clockOnly.every((r) => r.changes.some((c) => c.kind === 'clock' && c.clock !== undefined))).toBe(true)
  })
})
