/**
 * A gateway in front of a provider it did not start (a `touchline provider --speed 60` run apart, as in the
 * record-and-replay recipe) runs the match clock at the rate TOUCHLINE_UPSTREAM_CLOCK_RATE says. At the
 * right rate the clock it stores keeps pace with the provider's, so no poll sends a clock change that a
 * client running the clock shows anyway; at the real API's rate (the default, 1) against a 60x provider,
 * nearly every poll corrects the clock.
 */
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { DEMO_TOKENS, startProvider, type RunningProvider } from '../../../packages/provider/src/index.ts'
import type { ChangeRecord } from '../../../src/wire-model/model.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { wholeLog } from '../../helpers/log.ts'
import { waitFor } from '../../helpers/wait.ts'

/** Clock-only records of the live set: the clock was corrected and nothing else changed. */
async function clockOnly (gw: Gateway): Promise<{ corrections: number, records: number }> {
  // The live set's records: the read of the days adds a record for each fixture of the week besides.
  const records = (await wholeLog(gw.store)).map((r) => JSON.parse(r.json) as ChangeRecord)
  const corrections = records.filter((r) => r.changes.every((c) => c.kind === 'clock')).length
  return { corrections, records: records.length }
}

describe('the match clock of an upstream run apart', () => {
  let provider: RunningProvider
  const gateways: Gateway[] = []

  const gateway = async (rate?: string): Promise<Gateway> => {
    const gw = await startTestGateway({
      env: {
        TOUCHLINE_UPSTREAM_URL: provider.baseUrl,
        TOUCHLINE_UPSTREAM_TOKEN: DEMO_TOKENS.enterprise,
        TOUCHLINE_POLL_FLOOR_MS: '250',
        TOUCHLINE_RECONCILE_INTERVAL_MS: '5000',
        ...(rate !== undefined ? { TOUCHLINE_UPSTREAM_CLOCK_RATE: rate } : {})
      }
    })
    gateways.push(gw)
    return gw
  }

  beforeAll(async () => {
    // A bucket large enough that both gateways poll at the floor.
    provider = await startProvider({ port: 0, host: '127.0.0.1', seed: 7, simSpeed: 60, liveTarget: 6, hourlyLimits: { Enterprise: 100_000 }, logger: pino({ level: 'silent' }) })
  })
  afterAll(async () => {
    for (const gw of gateways) await gw.close()
    await provider?.close()
  })

  it('sends no clock tick at the rate the setting gives; the real API\'s rate corrects the clock at nearly every poll', async () => {
    const right = await gateway('60')
    const wrong = await gateway()
    // Polls of the live feed (`latest` and reconciles): the days, fixtures/latest and statistics reads bring no clock of their own.
    const polls = async (gw: Gateway): Promise<number> => (await gw.metrics.registry.getSingleMetric('touchline_polls_total')?.get())?.values
      .filter((v) => v.labels.outcome === 'ok' && (v.labels.kind === 'latest' || v.labels.kind === 'reconcile')).reduce((n, v) => n + v.value, 0) ?? 0
    await waitFor('40 polls of the live feed by each gateway', async () => await polls(right) >= 40 && await polls(wrong) >= 40, 40_000)
    const atRate = await clockOnly(right)
    const atOne = await clockOnly(wrong)
    // Against a 60x clock run at 1x, each ticking fixture's clock is a minute off at every poll.
    expect(atOne.corrections).toBeGreaterThanOrEqual(20)
    // At 60x the stored clock shows what the provider says: what is left are real corrections (added time
    // announced, play stopped) and, on a busy machine, polls answered late, a handful.
    expect(atRate.corrections * 3).toBeLessThan(atOne.corrections)
    expect(atRate.records).toBeGreaterThan(0)
  }, 60_000)
})
