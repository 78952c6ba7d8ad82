/**
 * Datetimes in a requested time zone (contract/time.ts): any letter case of a zone name is the zone, and
 * holds no formatter of its own (each holds about 30 KB of ICU memory, and a client may send any of the
 * 2^letters spellings of a zone).
 */
import { describe, expect, it } from 'vitest'
import { formatInZone, zoneFormatters } from '../../../packages/upstream-contract/src/time.ts'

/** The i-th upper/lower-case spelling of a zone name. */
function spelling (zone: string, i: number): string {
  let k = i
  return [...zone].map((c) => {
    if (!/[a-z]/i.test(c)) return c
    const up = (k & 1) === 1
    k = Math.floor(k / 2)
    return up ? c.toUpperCase() : c.toLowerCase()
  }).join('')
}

const KICKOFF = 1780254000 // 2026-05-31 19:00:00 UTC

describe('formatInZone', () => {
  it('writes the upstream\'s format in the zone, UTC without a formatter', () => {
    expect(formatInZone(KICKOFF, 'UTC')).toBe('2026-05-31 19:00:00')
    expect(formatInZone(KICKOFF, 'Europe/London')).toBe('2026-05-31 20:00:00')
    expect(formatInZone(KICKOFF, 'America/Argentina/Buenos_Aires')).toBe('2026-05-31 16:00:00')
  })

  it('holds one formatter per zone however many spellings of it are asked for', () => {
    const before = zoneFormatters()
    const zone = 'America/Argentina/Buenos_Aires'
    for (let i = 1; i <= 2500; i++) expect(formatInZone(KICKOFF, spelling(zone, i))).toBe('2026-05-31 16:00:00')
    // At most one new formatter: the zone's own (another test of this file may have made it already).
    expect(zoneFormatters() - before).toBeLessThanOrEqual(1)
    expect(formatInZone(KICKOFF, 'asia/TOKYO')).toBe('2026-06-01 04:00:00')
    expect(zoneFormatters() - before).toBeLessThanOrEqual(2)
  })
})
