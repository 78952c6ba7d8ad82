/**
 * `GET /v1/fixtures?date=` (docs/protocol.md, "Days"): every fixture of a day in one answer, on the memory
 * store and on Redis. The gateway reads the days around today once (the stepped poller's second step) and
 * the clock then stands still, so the upstream's own listing of the day, `fixtures/date/{date}` page by
 * page, is of the same instant:
 *
 * - the answer holds every fixture of a day of 300 or more, the same ids and kick-offs as the upstream, by
 *   kick-off; and for each day read, those of that day and no other (the matches in play today are not in
 *   tomorrow's answer: they were, the whole live set with every day);
 * - it answers 304 to its ETag while the day is unchanged, and another tag (and the change) once a fixture
 *   of the day changed;
 * - it comes in brotli or gzip as the client accepts them (undici's `request` hands over the raw bytes,
 *   which fetch would decompress), the same JSON as the plain answer, in a fraction of its bytes.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LiveFixture } from '../../../src/wire-model/model.ts'
import { responseErrors } from '../../helpers/protocol-docs.ts'
import { waitFor } from '../../helpers/wait.ts'
import { dayOf, ENGINES, startSteppedGateway, upcoming, upstreamDay, type SteppedRig, type UpstreamRow } from './harness.ts'

const DAY_MS = 86_400_000

interface Answer { status: number, headers: Record<string, string | string[] | undefined>, bytes: Buffer }

describe.each(ENGINES)('GET /v1/fixtures?date= on the %s store', (engine) => {
  let rig: SteppedRig
  let date: string
  let upstream: UpstreamRow[]

  const get = async (headers: Record<string, string> = {}, day = date): Promise<Answer> => {
    const res = await request(`${rig.gw.url}/v1/fixtures?date=${day}&api_token=demo`, { headers })
    return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) }
  }
  const json = (a: Answer): { data: LiveFixture[], count: number, dates: string[], tz: string, cursor: string } => JSON.parse(a.bytes.toString('utf8'))

  beforeAll(async () => {
    rig = await startSteppedGateway(engine)
    await rig.step() // the reconcile at start
    await rig.step() // a `latest` poll, then the read of the days around today (awaited by step)
    // The larger of today and tomorrow: at 60x the simulator's rolling schedule fills one or the other.
    const days = await Promise.all([0, 1].map(async (i) => {
      const d = dayOf(rig.clock.now + i * DAY_MS)
      return { d, rows: await upstreamDay(rig.provider, d) }
    }))
    const biggest = days.sort((a, b) => b.rows.length - a.rows.length)[0]!
    date = biggest.d
    upstream = biggest.rows
  }, 120_000)
  afterAll(async () => { await rig?.close() })

  it('holds every fixture of a day of 300 or more: the upstream\'s ids and kick-offs, by kick-off', async () => {
    expect(upstream.length).toBeGreaterThanOrEqual(300)
    const res = await get({ 'accept-encoding': 'identity' })
    expect(res.status).toBe(200)
    expect(res.headers['content-encoding']).toBeUndefined()
    const body = json(res)
    expect(body).toMatchObject({ count: upstream.length, dates: [date], tz: 'UTC' })
    expect(body.data).toHaveLength(upstream.length)
    const kickoffs = (rows: Array<{ id: number, kickoff: number }>): Array<[number, number]> => rows.map((r): [number, number] => [r.id, r.kickoff]).sort((a, b) => a[0] - b[0])
    expect(kickoffs(body.data.map((f) => ({ id: f.id, kickoff: Date.parse(f.starting_at ?? '') }))))
      .toEqual(kickoffs(upstream.map((f) => ({ id: f.id, kickoff: f.starting_at_timestamp * 1000 }))))
    const order = body.data.map((f) => [Date.parse(f.starting_at ?? ''), f.id] as const)
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]))
    // As the OpenAPI document says.
    expect(responseErrors('/v1/fixtures', 200, body)).toEqual([])
  })

  it('holds, for every day read (three back to three ahead), the upstream\'s fixtures of that day and none of another', async () => {
    for (let i = -3; i <= 3; i++) {
      const day = dayOf(rig.clock.now + i * DAY_MS)
      const expected = (await upstreamDay(rig.provider, day)).map((f) => f.id).sort((a, b) => a - b)
      const body = json(await get({}, day))
      expect(body.data.map((f) => f.id).sort((a, b) => a - b), day).toEqual(expected)
      expect(body.data.every((f) => dayOf(Date.parse(f.starting_at ?? '')) === day), day).toBe(true)
    }
  })

  it('answers 304 to its ETag while the day is unchanged, and a new tag once a fixture of it changed', async () => {
    const first = await get()
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/".+"$/)
    expect(first.headers.vary).toBe('Accept-Encoding')
    const again = await get({ 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.bytes).toHaveLength(0)
    expect(again.headers.etag).toBe(etag)

    // A fixture of the day postponed at the provider: `fixtures/latest` brings it within a few polls.
    const [target] = (await upcoming(rig.provider, rig.clock.now, { from: rig.clock.now + 10 * 60_000, to: rig.clock.now + 2 * DAY_MS }))
      .filter((f) => dayOf(f.starting_at_timestamp * 1000) === date)
    if (target === undefined) throw new Error(`no fixture of ${date} to postpone`)
    rig.provider.schedule.postpone(target.id, rig.clock.now + 500)
    expect(await rig.stepUntil(async () => (await rig.gw.store.getFixture(target.id))?.state.code === 'POSTPONED', rig.clock.now + 20_000)).toBe(true)
    const changed = await waitFor('a new ETag for the day', async () => { const a = await get({ 'if-none-match': etag }); return a.status === 200 && a }, 10_000)
    expect(changed.headers.etag).not.toBe(etag)
    const postponed = json(changed).data.find((f) => f.id === target.id)
    expect(postponed?.state).toMatchObject({ code: 'POSTPONED', phase: 'postponed' })
    expect((await get({ 'if-none-match': changed.headers.etag as string })).status).toBe(304)
  })

  it('comes in brotli or gzip as accepted: the same JSON in a fraction of the bytes', async () => {
    const plain = await get({ 'accept-encoding': 'identity' })
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' })
    const gz = await get({ 'accept-encoding': 'gzip' })
    const noBr = await get({ 'accept-encoding': 'br;q=0, gzip' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(noBr.headers['content-encoding']).toBe('gzip')
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true)
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true)
    expect(br.headers.etag).toBe(plain.headers.etag)
    // A day of 300 fixtures is a few hundred KB of JSON that compresses more than tenfold.
    expect(plain.bytes.length).toBeGreaterThan(300_000)
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 10)
    expect(gz.bytes.length).toBeLessThan(plain.bytes.length / 5)
  })
})
