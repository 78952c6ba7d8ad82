/** Polling for a condition in integration tests. */
import { setTimeout as sleep } from 'node:timers/promises'

/** Waits until `test` holds, polling every `everyMs`; throws naming `what` after `ms`. Resolves to the ms it took. */
export async function waitFor (what: string, test: () => boolean | Promise<boolean>, ms: number, everyMs = 25): Promise<number> {
  const started = Date.now()
  while (!(await test())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(everyMs)
  }
  return Date.now() - started
}
