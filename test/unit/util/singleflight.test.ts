import { describe, expect, it } from 'vitest'
import { createSingleFlight } from '../../../src/util/singleflight.ts'

describe('singleflight', () => {
  it('runs one call per key for concurrent callers and forgets it once settled', async () => {
    const flights = createSingleFlight<number>()
    let calls = 0
    let release: (n: number) => void = () => {}
    const fn = async (): Promise<number> => { calls++; return await new Promise<number>((resolve) => { release = resolve }) }
    const all = Promise.all([flights.run('a', fn), flights.run('a', fn), flights.run('a', fn)])
    expect(flights.size()).toBe(1)
    release(7)
    expect((await all).map((f) => [f.value, f.shared])).toEqual([[7, false], [7, true], [7, true]])
    expect(calls).toBe(1)
    expect(flights.size()).toBe(0)
    await flights.run('a', async () => { calls++; return 1 })
    expect(calls).toBe(2)
  })

  it('hands a failure to every caller of the flight', async () => {
    const flights = createSingleFlight<number>()
    const boom = async (): Promise<number> => { await Promise.resolve(); throw new Error('boom') }
    const results = await Promise.allSettled([flights.run('k', boom), flights.run('k', boom)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(flights.size()).toBe(0)
  })
})
