import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino, type Logger } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { createRecorder, recordingFile, type RecordedLine } from '../../../src/record/recorder.ts'
import type { Query, UpstreamClient, UpstreamResponse } from '../../../src/upstream/index.ts'

const TOKEN = 'sekrit-token-123'
const HOUR = Date.parse('2026-11-24T15:59:58.000Z')

/** An upstream whose every answer is `body` (enveloped), as the client would return it. */
function upstreamAnswering (body: (path: string) => Record<string, unknown>): UpstreamClient & { calls: string[] } {
  const calls: string[] = []
  const response = (path: string): UpstreamResponse<never> => {
    const envelope = body(path)
    return { data: envelope.data as never, envelope: envelope as never, status: 200, durationMs: 1 }
  }
  return {
    calls,
    async get<T> (path: string, _query?: Query) { calls.push(path); return response(path) as UpstreamResponse<T> },
    async * paginate<T> (path: string) { calls.push(path); yield response(path) as UpstreamResponse<T[]>; yield response(path) as UpstreamResponse<T[]> },
    async getRaw () { throw new Error('not used') },
    async close () {}
  }
}

const fixtureBody = (path: string): Record<string, unknown> => ({
  data: [{ id: 1, state_id: 2, name: 'A vs B', path }],
  pagination: { has_more: true, next_page: `https://api.example.com/v3/football/livescores?api_token=${TOKEN}&page=2` },
  subscription: [{ plan: 'x', note: `called with ?api_token=${TOKEN}` }]
})

function logSink (): { log: Logger, lines: string[] } {
  const lines: string[] = []
  return { log: pino({ level: 'warn' }, { write: (line: string) => { lines.push(line) } }), lines }
}

const readLines = (dir: string, file: string): RecordedLine[] =>
  readFileSync(join(dir, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RecordedLine)

describe('the match-day recorder', () => {
  const dirs: string[] = []
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'touchline-record-'))
    dirs.push(dir)
    return dir
  }
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }) })

  it('writes one line per recorded response into the file of its UTC hour, creating the directory', async () => {
    let now = HOUR
    const dir = join(tempDir(), 'nested', 'recordings')
    const recorder = createRecorder({ dir, now: () => now, secrets: [TOKEN] })
    const upstream = recorder.wrap(upstreamAnswering(fixtureBody))
    await upstream.get('/football/livescores', { include: 'participants;scores' })
    now += 1000
    await upstream.get('/football/livescores/latest', { include: 'participants;scores' })
    now += 2000 // 16:00:01: the next hour's file
    await upstream.get('/football/fixtures/multi/1,2', { include: 'participants', api_token: TOKEN })
    await upstream.get('/football/fixtures/7')
    await recorder.close()

    expect(readdirSync(dir).sort()).toEqual(['touchline-2026-11-24T15.ndjson', 'touchline-2026-11-24T16.ndjson'])
    const first = readLines(dir, 'touchline-2026-11-24T15.ndjson')
    expect(first.map((l) => [l.at, l.path, l.status])).toEqual([
      ['2026-11-24T15:59:58.000Z', '/football/livescores?include=participants;scores', 200],
      ['2026-11-24T15:59:59.000Z', '/football/livescores/latest?include=participants;scores', 200]
    ])
    expect((first[0]?.body as { data: unknown }).data).toEqual([{ id: 1, state_id: 2, name: 'A vs B', path: '/football/livescores' }])
    expect(readLines(dir, 'touchline-2026-11-24T16.ndjson').map((l) => l.path)).toEqual(['/football/fixtures/multi/1,2?include=participants', '/football/fixtures/7'])
  })

  it('appends to an existing hour file', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, recordingFile('2026-11-24T15:00:00Z')), '{"at":"2026-11-24T15:00:00.000Z","path":"/football/livescores","status":200,"body":{}}\n')
    const recorder = createRecorder({ dir, now: () => HOUR })
    await recorder.wrap(upstreamAnswering(fixtureBody)).get('/football/livescores/latest')
    await recorder.close()
    expect(readLines(dir, 'touchline-2026-11-24T15.ndjson').map((l) => l.path)).toEqual(['/football/livescores', '/football/livescores/latest'])
  })

  it('records every response of the wrapped client, each page of a walk included', async () => {
    const dir = tempDir()
    const recorder = createRecorder({ dir, now: () => HOUR })
    const inner = upstreamAnswering(fixtureBody)
    const upstream = recorder.wrap(inner)
    await upstream.get('/football/fixtures/date/2026-11-24')
    const pages = []
    for await (const page of upstream.paginate('/football/livescores/inplay')) pages.push(page)
    await recorder.close()
    expect(pages).toHaveLength(2)
    expect(inner.calls).toEqual(['/football/fixtures/date/2026-11-24', '/football/livescores/inplay'])
    expect(readLines(dir, 'touchline-2026-11-24T15.ndjson').map((l) => l.path)).toEqual(['/football/fixtures/date/2026-11-24', '/football/livescores/inplay', '/football/livescores/inplay'])
  })

  it('strips the host and the token from every URL of a body and never writes the token', async () => {
    const dir = tempDir()
    const recorder = createRecorder({ dir, now: () => HOUR, secrets: [TOKEN] })
    await recorder.wrap(upstreamAnswering(fixtureBody)).get('/football/livescores', { api_token: TOKEN, include: 'state' })
    await recorder.close()
    const text = readFileSync(join(dir, 'touchline-2026-11-24T15.ndjson'), 'utf8')
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain('api.example.com')
    const [line] = readLines(dir, 'touchline-2026-11-24T15.ndjson')
    expect(line?.path).toBe('/football/livescores?include=state')
    const body = line?.body as { pagination: { next_page: string }, subscription: Array<{ note: string }> }
    expect(body.pagination.next_page).toBe('/v3/football/livescores?page=2')
    expect(body.subscription[0]?.note).toBe('called with ?api_token=[redacted]')
  })

  it('a write failure never reaches the poll: logged once, that hour dropped, the next hour recorded', async () => {
    const parent = tempDir()
    const dir = join(parent, 'blocked')
    writeFileSync(dir, 'a file where the directory should be')
    const { log, lines } = logSink()
    let now = HOUR
    const recorder = createRecorder({ dir, now: () => now, log })
    const upstream = recorder.wrap(upstreamAnswering(fixtureBody))
    for (let i = 0; i < 5; i++) {
      const res = await upstream.get('/football/livescores/latest')
      expect(res.status).toBe(200)
      await recorder.flush()
    }
    expect(lines.filter((l) => l.includes('recording failed'))).toHaveLength(1)
    // The way is cleared; the next hour writes again.
    rmSync(dir)
    now += 3_600_000
    await upstream.get('/football/livescores/latest')
    await recorder.close()
    expect(readdirSync(dir)).toEqual(['touchline-2026-11-24T16.ndjson'])
    expect(lines.filter((l) => l.includes('recording failed'))).toHaveLength(1)
  })

  it('stops recording on close, after writing what was queued', async () => {
    const dir = tempDir()
    const recorder = createRecorder({ dir, now: () => HOUR })
    const upstream = recorder.wrap(upstreamAnswering(fixtureBody))
    await Promise.all([upstream.get('/football/livescores'), upstream.get('/football/livescores/latest')])
    await recorder.close()
    await upstream.get('/football/livescores/latest')
    await recorder.flush()
    expect(readLines(dir, 'touchline-2026-11-24T15.ndjson')).toHaveLength(2)
  })
})
