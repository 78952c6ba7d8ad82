import { getEventListeners, once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { linkSignals, sleep } from '../../../src/util/abort.ts'

describe('linkSignals', () => {
  it('aborts at its deadline, saying it timed out', async () => {
    const long = new AbortController()
    const call = linkSignals(5, [long.signal], 'probe')
    await once(call.signal, 'abort')
    expect(call.timedOut()).toBe(true)
    expect((call.signal.reason as Error).message).toBe('probe timed out')
    expect(long.signal.aborted).toBe(false)
    call.done()
  })

  it('aborts when any of its signals aborts, not as a timeout', async () => {
    const close = new AbortController()
    const caller = new AbortController()
    const call = linkSignals(60_000, [close.signal, undefined, caller.signal], 'probe')
    const aborted = once(call.signal, 'abort')
    caller.abort()
    await aborted
    expect(call.timedOut()).toBe(false)
    expect((call.signal.reason as Error).message).toBe('probe aborted')
    call.done()
  })

  it('is aborted at once when a signal already is', () => {
    const gone = new AbortController()
    gone.abort()
    const call = linkSignals(60_000, [gone.signal])
    expect(call.signal.aborted).toBe(true)
    call.done()
  })

  it('keeps nothing on a long-lived signal once done (AbortSignal.any on Node 20 keeps every signal it made)', () => {
    const process = new AbortController()
    for (let i = 0; i < 10_000; i++) linkSignals(60_000, [process.signal]).done()
    expect(getEventListeners(process.signal, 'abort')).toHaveLength(0)
    // While a call runs, it listens once.
    const call = linkSignals(60_000, [process.signal])
    expect(getEventListeners(process.signal, 'abort')).toHaveLength(1)
    call.done()
    expect(getEventListeners(process.signal, 'abort')).toHaveLength(0)
  })
})

describe('sleep', () => {
  it('resolves true once the time is up, leaving no listener behind', async () => {
    const process = new AbortController()
    expect(await sleep(5, [process.signal])).toBe(true)
    expect(getEventListeners(process.signal, 'abort')).toHaveLength(0)
  })

  it('resolves false as soon as a signal aborts, long before its time', async () => {
    const close = new AbortController()
    const waited = sleep(60_000, [undefined, close.signal])
    close.abort()
    expect(await waited).toBe(false)
  })

  it('resolves false at once when a signal already is aborted', async () => {
    const gone = new AbortController()
    gone.abort()
    expect(await sleep(60_000, [gone.signal])).toBe(false)
  })
})
