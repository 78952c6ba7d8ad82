/**
 * The real upstream recordings (test/fixtures/upstream/recorded/), parsed the way the upstream client
 * parses a response. Man Utd–Villa is a bare fixture object; PSG–Arsenal is a full envelope.
 */
import { readFileSync } from 'node:fs'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import type { UpstreamFixture } from '../../../src/upstream/schemas.ts'

export const RECORDINGS = {
  manutdVilla: 'fixture-19135043-manutd-villa.json',
  psgArsenal: 'fixture-19683241-psg-arsenal-penalties.json'
} as const

export type RecordingName = keyof typeof RECORDINGS

const RECORDED = new URL('../../fixtures/upstream/recorded/', import.meta.url)

export function readRecording (name: RecordingName): unknown {
  return JSON.parse(readFileSync(new URL(RECORDINGS[name], RECORDED), 'utf8'))
}

/** The recorded fixture, validated. A bare fixture object is wrapped in `{ data }` like a by-id response. */
export function recordedFixture (name: RecordingName): UpstreamFixture {
  const json = readRecording(name) as Record<string, unknown>
  const body = 'data' in json ? json : { data: json }
  const [fixture] = parseFixtures(body)
  if (fixture === undefined) throw new Error(`recording ${name} did not parse`)
  return fixture
}
