import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { hedged } from '../../../src/poller/hedge.ts'

/** A request that answers `value` after `ms`, or never when `ms` is undefined; records its aborts. */
function request (log: string[], name: string, ms: number | undefined, value?: string, fail?: Error) {
  return async (signal: AbortSignal): Promise<string> => {
    log.push(`${name} sent`)
    return await new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => { log.push(`${name} aborted`); reject(new Error('aborted')) })
      if (ms !== undefined) setTimeout(() => { if (fail !== undefined) reject(fail); else resolve(value ?? name) }, ms)
    })
  }
}

/** Runs the i-th request of a list on the i-th launch. */
const sequence = (runs: Array<(s: AbortSignal) => Promise<string>>) => {
  let i = 0
  return async (signal: AbortSignal) => await (runs[i++] as (s: AbortSignal) => Promise<string>)(signal)
}

describe('hedged', () => {
  it('sends one request when it answers before the hedge is due', async () => {
    const log: string[] = []
    expect(await hedged(sequence([request(log, 'a', 5)]), 100, new AbortController().signal)).toBe('a')
    await sleep(150)
    expect(log).toEqual(['a sent'])
  })

  it('sends the same request once more beside a hung one, takes the hedge\'s answer and aborts the first', async () => {
    const log: string[] = []
    const started = Date.now()
    expect(await hedged(sequence([request(log, 'a', undefined), request(log, 'b', 5)]), 50, new AbortController().signal)).toBe('b')
    expect(Date.now() - started).toBeLessThan(1000)
    expect(log).toEqual(['a sent', 'b sent', 'a aborted'])
  })

  it('fails at once, with no hedge, when the first fails before the hedge is due (an error answer, not a hang)', async () => {
    const log: string[] = []
    await expect(hedged(sequence([request(log, 'a', 5, undefined, new Error('500'))]), 100, new AbortController().signal)).rejects.toThrow('500')
    await sleep(150)
    expect(log).toEqual(['a sent'])
  })

  it('fails when both fail, with the last failure', async () => {
    const log: string[] = []
    await expect(hedged(sequence([request(log, 'a', 100, undefined, new Error('first')), request(log, 'b', 100, undefined, new Error('second'))]), 20, new AbortController().signal)).rejects.toThrow('second')
  })

  it('sends up to `hedges` requests beside the first, one interval apart', async () => {
    const log: string[] = []
    const run = sequence([request(log, 'a', undefined), request(log, 'b', undefined), request(log, 'c', 5)])
    expect(await hedged(run, 30, new AbortController().signal, 2)).toBe('c')
    expect(log).toEqual(['a sent', 'b sent', 'c sent', 'a aborted', 'b aborted'])
  })

  it('aborts both when the caller aborts', async () => {
    const log: string[] = []
    const parent = new AbortController()
    const done = hedged(sequence([request(log, 'a', undefined), request(log, 'b', undefined)]), 20, parent.signal)
    await sleep(60)
    parent.abort()
    await expect(done).rejects.toThrow('aborted')
    expect(log.sort()).toEqual(['a aborted', 'a sent', 'b aborted', 'b sent'])
  })

  it('sends the next hedge at once when a request fails with an error the caller says is worth one, and takes its answer', async () => {
    const log: string[] = []
    const run = sequence([request(log, 'a', 5, undefined, new Error('500')), request(log, 'b', 5)])
    const started = Date.now()
    expect(await hedged(run, 10_000, new AbortController().signal, 2, (err) => String(err).includes('500'))).toBe('b')
    expect(Date.now() - started, 'not after the hedge interval').toBeLessThan(1000)
    expect(log).toEqual(['a sent', 'b sent'])
  })

  it('sends at most `failureHedges` hedges at once on errors; the rest only when due, so errors alone end the call', async () => {
    const log: string[] = []
    const fail = (name: string) => request(log, name, 5, undefined, new Error(`500 ${name}`))
    const run = sequence([fail('a'), fail('b'), fail('c'), request(log, 'd', 5), request(log, 'e', 5)])
    const worth = (err: unknown): boolean => String(err).includes('500')
    // Four hedges allowed, two of them on errors: a, b, c fail; no request is left and none is due.
    await expect(hedged(run, 10_000, new AbortController().signal, 4, worth, 2)).rejects.toThrow('500 c')
    expect(log).toEqual(['a sent', 'b sent', 'c sent'])
  })

  it('fails at once on an error the caller says is not worth a hedge (a 429), and when no hedge is left', async () => {
    const log: string[] = []
    const worth = (err: unknown): boolean => String(err).includes('500')
    await expect(hedged(sequence([request(log, 'a', 5, undefined, new Error('429'))]), 10_000, new AbortController().signal, 2, worth)).rejects.toThrow('429')
    expect(log).toEqual(['a sent'])
    const fails = (name: string) => request(log, name, 5, undefined, new Error(`500 ${name}`))
    await expect(hedged(sequence([fails('b'), fails('c'), fails('d')]), 10_000, new AbortController().signal, 2, worth)).rejects.toThrow('500 d')
    expect(log).toEqual(['a sent', 'b sent', 'c sent', 'd sent'])
  })
})
