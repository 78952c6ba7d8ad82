/**
 * `npm run bench:abort`: the heap a long-lived abort signal keeps for the calls linked to it, with Node's
 * `AbortSignal.any` and with src/util/abort.ts's `linkSignals` (why the gateway does not use the former on
 * Node 20). 500,000 calls over 500 turns of the event loop, each linked to one signal that stays alive and
 * never aborts, as a worker's or a client's does; the heap is read after a full GC.
 */
import { linkSignals } from '../src/util/abort.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc (npm run bench:abort does)')
const heapMb = (): number => { gc(); return process.memoryUsage().heapUsed / 1e6 }

for (const mode of ['AbortSignal.any', 'linkSignals'] as const) {
  const longLived = new AbortController()
  const base = heapMb()
  for (let turn = 0; turn < 500; turn++) {
    for (let i = 0; i < 1000; i++) {
      if (mode === 'linkSignals') linkSignals(60_000, [longLived.signal]).done()
      else if (AbortSignal.any([longLived.signal, new AbortController().signal]).aborted) throw new Error('aborted')
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
  const kept = heapMb() - base
  // The signal is still alive here (read after the measure): what it keeps is what a process would keep.
  process.stdout.write(`${mode.padEnd(16)} 500,000 calls on one live signal (aborted: ${longLived.signal.aborted}): ${kept.toFixed(1)} MB kept after GC\n`)
}
