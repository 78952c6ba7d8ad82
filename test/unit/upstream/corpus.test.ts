/**
 * Every real body we have (test/fixtures/upstream/real/, captured 2023, and recorded/, with includes) goes
 * through the upstream client over real HTTP, the fixture parser, the normalizer and the differ. Nothing
 * may be dropped or throw; the only anomalies allowed are the includes the 2023 captures were made without.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diffFixtures } from '../../../src/diff/diff.ts'
import { normalizeFixture } from '../../../src/diff/normalize.ts'
import type { Anomaly } from '../../../src/upstream/anomalies.ts'
import { createUpstreamClient, type UpstreamClient } from '../../../src/upstream/client.ts'
import { parseFixtures } from '../../../src/upstream/schemas.ts'
import { startServer, type TestServer } from './client-server.ts'

const SHARED = new URL('../../fixtures/upstream/', import.meta.url)

/** The request each body answered (real/README.md); recorded fixtures answer a by-id request. */
const PATHS: Readonly<Record<string, string>> = {
  'real/livescores-2023.json': '/football/livescores',
  'real/livescores-inplay-2023.json': '/football/livescores/inplay',
  'real/livescores-latest-2023.json': '/football/livescores/latest',
  'real/fixtures-latest-2023.json': '/football/fixtures/latest',
  'real/fixtures-multi-2023.json': '/football/fixtures/multi/18528484,18531140',
  'real/fixtures-all-2023.json': '/football/fixtures',
  'real/states-2023.json': '/football/states',
  'recorded/fixture-19135043-manutd-villa.json': '/football/fixtures/19135043',
  'recorded/fixture-19683241-psg-arsenal-penalties.json': '/football/fixtures/19683241'
}

const bodies = ['real', 'recorded'].flatMap((dir) => readdirSync(new URL(`${dir}/`, SHARED))
  .filter((name) => name.endsWith('.json'))
  .map((name) => {
    const file = `${dir}/${name}`
    const json = JSON.parse(readFileSync(new URL(file, SHARED), 'utf8')) as Record<string, any>
    // Man Utd–Villa was saved as the bare fixture: serve it the way a by-id request answers.
    return { file, body: 'data' in json ? json : { data: json }, withIncludes: dir === 'recorded' }
  }))

describe('the corpus of real bodies', () => {
  let server: TestServer
  let client: UpstreamClient

  beforeAll(async () => {
    server = await startServer()
    client = createUpstreamClient({ baseUrl: server.baseUrl, token: 'corpus-token', retries: 0 })
  })
  afterAll(async () => {
    await client.close()
    await server.close()
  })

  it('knows the request of every body in test/fixtures/upstream', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(9)
    expect(bodies.map((b) => b.file).filter((file) => PATHS[file] === undefined)).toEqual([])
  })

  for (const { file, body, withIncludes } of bodies) {
    if (file.includes('states')) continue
    it(`${file}: every fixture parsed, normalized and diffed`, async () => {
      const path = PATHS[file] as string
      server.on(path.split('?')[0] as string, { body })
      const res = await client.get(path)
      // Fixtures and livescores draw on the Fixture bucket; the bare recording has no envelope to say so.
      if ('rate_limit' in body) expect(res.rateLimit).toMatchObject({ entity: 'Fixture' })
      const anomalies: Anomaly[] = []
      const fixtures = parseFixtures(res.envelope, { anomalies: (a) => anomalies.push(a) })
      const expected = Array.isArray(body.data) ? body.data.length : 1
      expect(fixtures).toHaveLength(expected)
      // The 2023 captures were requested without includes: teams and scores fall back, nothing else.
      expect([...new Set(anomalies.map((a) => a.path))].sort()).toEqual(withIncludes ? [] : ['participants', 'scores'])
      for (const upstream of fixtures) {
        const live = normalizeFixture(upstream)
        expect(live.id).toBe(upstream.id)
        expect(live.league_id).toBe(upstream.league_id)
        expect(typeof live.home.name).toBe('string')
        expect(live.home.name).not.toBe('')
        const copy = JSON.parse(JSON.stringify(live))
        expect(copy).toEqual(live)
        expect(diffFixtures(undefined, live)).toEqual([{ kind: 'fixture_added' }])
        expect(diffFixtures(live, normalizeFixture(JSON.parse(JSON.stringify(upstream))))).toEqual([])
        if (!withIncludes) {
          // Score from the legacy fields of 2023 (null before kick-off), teams from "Home vs Away".
          const raw = (Array.isArray(body.data) ? body.data : [body.data]).find((f: { id: number }) => f.id === upstream.id)
          expect([live.home.score, live.away.score]).toEqual([raw.home_score, raw.away_score])
          expect(`${live.home.name} vs ${live.away.name}`).toBe(raw.name)
        }
      }
    })
  }

  it('real/states-2023.json: a State bucket with no total, 25 states with the legacy flags passed through', async () => {
    const entry = bodies.find((b) => b.file === 'real/states-2023.json')
    server.on('/football/states', { body: entry?.body })
    const res = await client.get<Array<Record<string, unknown>>>('/football/states')
    expect(res.rateLimit).toMatchObject({ entity: 'State', remaining: 179 })
    expect(res.envelope.rate_limit).not.toHaveProperty('total')
    expect(res.envelope.subscription?.[0]?.meta).toEqual([])
    expect(res.data).toHaveLength(25)
    expect(res.data.find((s) => s.id === 9)).toMatchObject({ developer_name: 'INPLAY_PENALTIES', is_live: true })
  })

  it('real/fixtures-all-2023.json: the page and its next_page are read', async () => {
    const entry = bodies.find((b) => b.file === 'real/fixtures-all-2023.json')
    server.on('/football/fixtures', { body: entry?.body })
    const res = await client.get('/football/fixtures')
    expect(res.envelope.pagination).toMatchObject({ count: 25, current_page: 1, has_more: true })
    expect(res.envelope.pagination?.next_page).toContain('page=2')
  })
})
