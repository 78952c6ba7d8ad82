/**
 * The one way tests wait for something to happen: poll a condition, never sleep a fixed time and hope. A
 * condition observed on a server, in a child's output or across clients is checked every `everyMs` until it
 * holds, and the test goes on at once.
 */
import { setTimeout as sleep } from 'node:timers/promises'

type Falsy = false | 0 | '' | null | undefined

/**
 * Waits until `test` returns something truthy, polling every `everyMs`, and resolves to that value (a
 * regexp match, a found log line, `true`). Throws naming `what` (a function: called then, so it can show
 * the output so far) after `ms`. An error `test` throws, e.g. "the process exited", ends the wait at once.
 */
export async function waitFor<T> (what: string | (() => string), test: () => T | Promise<T>, ms = 5000, everyMs = 25): Promise<Exclude<T, Falsy>> {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await test()
    if (found) return found as Exclude<T, Falsy>
    if (Date.now() > deadline) throw new Error(`${typeof what === 'string' ? what : what()}: not within ${ms} ms`)
    await sleep(everyMs)
  }
}
