import { describe, expect, it } from 'vitest'
import { RecentLog } from '../../../src/fanout/recent.ts'
import type { LogRecord } from '../../../src/store/types.ts'

const record = (epoch: string, offset: number): [LogRecord, string] => {
  const r = { cursor: `${epoch}:${offset}`, fixture_id: offset, league_id: 271 } as unknown as LogRecord
  return [r, JSON.stringify(r)]
}
const offsets = (held: ReturnType<RecentLog['between']>): number[] | undefined => held?.map((e) => Number(e.record.cursor.split(':')[1]))

function filled (capacity: number, epoch: string, from: number, to: number): RecentLog {
  const ring = new RecentLog(capacity)
  for (let i = from; i <= to; i++) ring.add(...record(epoch, i))
  return ring
}

describe('RecentLog', () => {
  it('answers every record after the cursor up to the head, across the wrap-around', () => {
    const ring = filled(4, 'aa', 1, 10)
    expect(offsets(ring.between('aa:6', 'aa:10'))).toEqual([7, 8, 9, 10])
    expect(offsets(ring.between('aa:8', 'aa:10'))).toEqual([9, 10])
    expect(offsets(ring.between('aa:10', 'aa:10'))).toEqual([])
  })

  it('keeps each record with its own JSON', () => {
    const ring = filled(3, 'aa', 1, 5)
    expect(ring.between('aa:3', 'aa:5')?.map((e) => (JSON.parse(e.json) as LogRecord).cursor === e.record.cursor)).toEqual([true, true])
  })

  it('does not answer a cursor older than it holds, ahead of it, of another epoch, or malformed', () => {
    const ring = filled(4, 'aa', 1, 10)
    expect(ring.between('aa:5', 'aa:10')).toBeUndefined()
    expect(ring.between('aa:11', 'aa:10')).toBeUndefined()
    expect(ring.between('bb:8', 'aa:10')).toBeUndefined()
    expect(ring.between('nonsense', 'aa:10')).toBeUndefined()
  })

  it('does not answer up to a head other than its newest record', () => {
    const ring = filled(4, 'aa', 1, 10)
    expect(ring.between('aa:8', 'aa:9')).toBeUndefined()
    expect(ring.between('aa:8', 'aa:11')).toBeUndefined()
  })

  it('starts again at a hole or a new epoch, never answering across one', () => {
    const ring = filled(8, 'aa', 1, 5)
    ring.add(...record('aa', 7))
    expect(ring.between('aa:4', 'aa:7')).toBeUndefined()
    expect(offsets(ring.between('aa:6', 'aa:7'))).toEqual([7])
    ring.add(...record('bb', 1))
    expect(ring.between('aa:7', 'bb:1')).toBeUndefined()
    expect(offsets(ring.between('bb:0', 'bb:1'))).toEqual([1])
  })

  it('keeps at most its bytes of JSON, dropping the oldest records first, never the newest', () => {
    const size = record('aa', 10)[1].length
    const ring = new RecentLog(100, size * 3)
    for (let i = 1; i <= 10; i++) ring.add(...record('aa', i))
    expect(offsets(ring.between('aa:7', 'aa:10'))).toEqual([8, 9, 10])
    expect(ring.between('aa:6', 'aa:10')).toBeUndefined()
    const tiny = new RecentLog(100, 1)
    tiny.add(...record('aa', 1))
    tiny.add(...record('aa', 2))
    expect(offsets(tiny.between('aa:1', 'aa:2'))).toEqual([2])
  })

  it('answers nothing once cleared', () => {
    const ring = filled(4, 'aa', 1, 3)
    ring.clear()
    expect(ring.between('aa:2', 'aa:3')).toBeUndefined()
    ring.add(...record('aa', 4))
    expect(offsets(ring.between('aa:3', 'aa:4'))).toEqual([4])
  })
})
