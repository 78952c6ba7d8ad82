/**
 * Snapshots compressed for permessage-deflate (src/fanout/deflate.ts): the payload, with the four bytes RFC
 * 7692 drops put back, inflates to the snapshot's JSON whole, whatever its ref, cursor and tail; the fixtures
 * array is compressed once for every client of the same snapshot; and it is much smaller than the JSON.
 */
import { constants, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { deflatedSnapshot } from '../../../src/fanout/deflate.ts'
import { joinParts, snapshotFrameParts } from '../../../src/protocol/control.ts'

const TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff])
const inflate = (payload: Buffer, windowBits = 15): string => inflateRawSync(Buffer.concat([payload, TAIL]), { windowBits, finishFlush: constants.Z_SYNC_FLUSH }).toString()

/** A day's fixtures as JSON: repetitive, as the real ones are. */
const fixtures = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({
  id: 19_000_000 + i,
  league_id: 8 + (i % 7),
  name: `Home ${i} vs Away ${i}`,
  starting_at: `2026-12-07T${String(10 + (i % 12)).padStart(2, '0')}:00:00Z`,
  state: { id: 1, code: 'NS', name: 'Not Started', phase: 'scheduled' },
  home: { id: 100 + i, name: `Home ${i}`, score: null },
  away: { id: 200 + i, name: `Away ${i}`, score: null },
  events: []
}))))

describe('snapshots compressed for permessage-deflate', () => {
  it('inflates to the frame\'s JSON, with odds and tables after the fixtures too', () => {
    for (const extras of [{}, { odds: Buffer.from('[{"fixture_id":1}]'), standings: Buffer.from('[]') }]) {
      const parts = snapshotFrameParts('s-1', 'ab:42', fixtures, extras)
      const payload = deflatedSnapshot(parts, 15)
      expect(inflate(payload)).toBe(joinParts(parts).toString())
      expect(JSON.parse(inflate(payload)).fixtures).toHaveLength(300)
    }
  })

  it('compresses the fixtures once for every client of the snapshot: two refs, the same middle', () => {
    const a = deflatedSnapshot(snapshotFrameParts('a', 'ab:1', fixtures), 15)
    const b = deflatedSnapshot(snapshotFrameParts('another-ref', 'ab:1', fixtures), 15)
    expect(inflate(b)).toContain('"ref":"another-ref"')
    // The shared middle: the longest run the two payloads have in common is the fixtures' compressed bytes.
    const common = (x: Buffer, y: Buffer): number => { let n = 0; while (n < Math.min(x.length, y.length) && x[x.length - 1 - n] === y[y.length - 1 - n]) n++; return n }
    expect(common(a, b)).toBeGreaterThan(a.length * 0.9)
  })

  it('is a fraction of the JSON, and reads with a smaller window negotiated', () => {
    const parts = snapshotFrameParts(undefined, 'ab:1', fixtures)
    expect(deflatedSnapshot(parts, 15).length).toBeLessThan(joinParts(parts).length / 5)
    expect(inflate(deflatedSnapshot(parts, 10), 10)).toBe(joinParts(parts).toString())
  })
})
