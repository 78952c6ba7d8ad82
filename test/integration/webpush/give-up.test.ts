/**
 * An alert the push service keeps failing is given up for that device, and says why (docs/push.md, "Sending"):
 * its attempts ran out (8, `exhausted`), or its TTL would pass before the next attempt (`expired`). The
 * failures along the way are counted by their status and logged with it, a few lines at info and the rest at
 * debug, never with the device's endpoint.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { startPushService, type Device } from '../../helpers/push-service.ts'
import { matches } from '../../helpers/matches.ts'
import { waitFor } from '../../helpers/wait.ts'
import { ALL_KEY, follow, pushEnv } from './harness.ts'

interface Line { level: number, msg: string, [field: string]: unknown }
const INFO = 30
const WARN = 40
const DEBUG = 20
const GIVEN_UP = /^push: alert given up/
const RETRIED = 'push: request failed; sent again later'

/** A gateway that drives its store by hand, its log lines kept from debug up. */
async function gatewayWithLog (): Promise<{ gw: Gateway, lines: Line[] }> {
  const lines: Line[] = []
  const sink = new Writable({ write (chunk: Buffer, _enc, done) { for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l) as Line); done() } })
  const gw = await startTestGateway({ env: pushEnv(), log: pino({ level: 'debug' }, sink), overrides: { poll: false }, closeWhenTestEnds: true })
  return { gw, lines }
}

/** A goal of a new match, to one device that follows it. */
async function goalTo (gw: Gateway, device: Device, fixtureId: number): Promise<void> {
  const match = await matches(gw.store).start(fixtureId, 501, 'Motherwell', 'St Mirren')
  expect((await follow(gw, ALL_KEY.key, device.subscription, { fixtures: [fixtureId] })).status).toBe(201)
  await match.goal('home', 'Bair', 12)
}

const metric = async (gw: Gateway, series: string): Promise<number | undefined> => {
  const line = (await (await fetch(`${gw.url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.split(' ')[1])
}

describe('a push the service keeps failing', () => {
  it('is given up after 8 attempts, saying so; the 7 failures before are counted and logged with their status', async () => {
    // 503 with Retry-After 0: each attempt is due at once, so the cap comes long before the goal's 300 s TTL.
    const service = await startPushService(() => ({ status: 503, headers: { 'retry-after': '0' } }))
    const device = service.newDevice()
    const { gw, lines } = await gatewayWithLog()
    await goalTo(gw, device, 8101)

    const givenUp = await waitFor('the alert given up', () => lines.find((l) => GIVEN_UP.test(l.msg)), 30_000)
    expect(givenUp).toMatchObject({ level: WARN, msg: 'push: alert given up (its attempts ran out)', reason: 'attempts', attempts: 8, maxAttempts: 8, status: 503, cause: '503', kind: 'goal' })
    expect(service.messages.filter((m) => m.device === device.id)).toHaveLength(8)

    const retried = lines.filter((l) => l.msg === RETRIED)
    expect(retried.map((l) => l.attempts)).toEqual([1, 2, 3, 4, 5, 6, 7])
    for (const l of retried) expect(l).toMatchObject({ status: 503, cause: '503', retryInMs: 0 })
    // Not a line each at info: a budget of 5 a minute, the rest at debug.
    expect(retried.filter((l) => l.level === INFO).length).toBeLessThanOrEqual(5)
    expect(retried.filter((l) => l.level === DEBUG).length).toBeGreaterThanOrEqual(2)
    expect(lines.filter((l) => GIVEN_UP.test(l.msg))).toHaveLength(1)
    // The endpoint is a device's address: never in a line.
    expect(lines.filter((l) => JSON.stringify(l).includes(device.endpoint))).toEqual([])

    expect(await metric(gw, 'touchline_push_sent_total{outcome="exhausted"}')).toBe(1)
    expect(await metric(gw, 'touchline_push_sent_total{outcome="expired"}')).toBeUndefined()
    expect(await metric(gw, 'touchline_push_sent_total{outcome="retry"}')).toBe(7)
    expect(await metric(gw, 'touchline_push_failures_total{cause="503"}')).toBe(8)
  })

  it('is given up at once when the service asks to wait past the alert\'s TTL, saying so', async () => {
    // A goal's TTL is 300 s: an hour's Retry-After would send it after the push service dropped it anyway.
    const service = await startPushService(() => ({ status: 429, headers: { 'retry-after': '3600' } }))
    const device = service.newDevice()
    const { gw, lines } = await gatewayWithLog()
    await goalTo(gw, device, 8102)

    const givenUp = await waitFor('the alert given up', () => lines.find((l) => GIVEN_UP.test(l.msg)), 30_000)
    expect(givenUp).toMatchObject({ level: WARN, msg: 'push: alert given up (its TTL would pass before the next attempt)', reason: 'ttl', attempts: 1, ttlS: 300, status: 429, cause: '429' })
    expect(service.messages.filter((m) => m.device === device.id)).toHaveLength(1)
    expect(lines.filter((l) => l.msg === RETRIED)).toEqual([])
    expect(await metric(gw, 'touchline_push_sent_total{outcome="expired"}')).toBe(1)
    expect(await metric(gw, 'touchline_push_sent_total{outcome="exhausted"}')).toBeUndefined()
    expect(await metric(gw, 'touchline_push_failures_total{cause="429"}')).toBe(1)
  })
})
