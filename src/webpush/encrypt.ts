/**
 * The payload encryption of push requests (RFC 8291, aes128gcm, by web-push: thread/encrypt.mjs). Each
 * device costs an ECDH key pair, an ECDH agreement and a key derivation, about 0.15-0.2 ms of CPU: half of
 * what an alert costs the gateway, and all of it work no other device shares. With TOUCHLINE_PUSH_THREADS
 * above 0 it runs in that many worker threads (piscina), a batch of devices per task, so the hand-off between
 * threads (a structured clone each way) is paid once a batch rather than once a device; with 0, on the event
 * loop. A batch the threads fail (a thread that died) is encrypted on the event loop instead: nothing is lost.
 */
import { availableParallelism } from 'node:os'
import { setImmediate } from 'node:timers/promises'
import type { Logger } from 'pino'
import { Piscina } from 'piscina'

export interface DeviceKeys { p256dh: string, auth: string }

export interface Encryptor {
  /**
   * Each device's request body, in order; null for a device whose keys cannot be used. One task: callers
   * give at most BATCH devices, and send a batch's requests while the next ones are encrypted.
   */
  encrypt: (payload: string, devices: readonly DeviceKeys[]) => Promise<Array<Buffer | null>>
  /** Worker threads it runs on (0: the event loop). */
  readonly threads: number
  close: () => Promise<void>
}

interface Task { payload: string, keys: Array<[string, string]> }
interface Done { bodies: Uint8Array, lengths: number[] }
type EncryptBatch = (task: Task) => Done

/** Devices per task: a batch takes a thread about 10 ms, and its hand-off costs what one device does. */
export const BATCH = 64

const WORKER = new URL('./thread/encrypt.mjs', import.meta.url)

/** Longest wait for a thread's batch (queued and run): one takes about 10 ms. */
const TASK_DEADLINE_MS = 5000

/** The default of TOUCHLINE_PUSH_THREADS: every core but the event loop's, at most 4; none on one core. */
export const defaultThreads = (): number => Math.min(4, availableParallelism() - 1)

function split ({ bodies, lengths }: Done): Array<Buffer | null> {
  const buffer = Buffer.from(bodies.buffer, bodies.byteOffset, bodies.byteLength)
  let at = 0
  return lengths.map((n) => {
    if (n < 0) return null
    const body = buffer.subarray(at, at + n)
    at += n
    return body
  })
}

const taskOf = (payload: string, devices: readonly DeviceKeys[]): Task => ({ payload, keys: devices.map((d) => [d.p256dh, d.auth]) })

export interface EncryptorOptions {
  /** The module the threads run (tests give ones that fail); the event loop always runs thread/encrypt.mjs. */
  worker?: URL
  /** @default TASK_DEADLINE_MS */
  deadlineMs?: number
}

export async function createEncryptor (threads: number, log: Logger, opts: EncryptorOptions = {}): Promise<Encryptor> {
  const { worker = WORKER, deadlineMs = TASK_DEADLINE_MS } = opts
  const inline = ((await import(WORKER.href)) as { default: EncryptBatch }).default
  const here = (payload: string, devices: readonly DeviceKeys[]): Array<Buffer | null> => split(inline(taskOf(payload, devices)))
  if (threads === 0) {
    // A turn of the event loop before each batch (about 12 ms of CPU): sends and sockets go on between them.
    return { threads, encrypt: async (payload, devices) => { await setImmediate(); return here(payload, devices) }, close: async () => {} }
  }
  const pool = new Piscina<Task, Done>({ filename: worker.href, minThreads: threads, maxThreads: threads, idleTimeout: Infinity })
  // A thread that fails outside a task (at load, say) is said, not thrown at the process; its tasks time out.
  pool.on('error', (err: unknown) => { log.warn({ err }, 'push: an encrypting thread failed') })
  return {
    threads,
    async encrypt (payload, devices) {
      try {
        // A deadline, so a batch whose thread never comes up is encrypted here rather than waited for forever.
        return split(await pool.run(taskOf(payload, devices), { signal: AbortSignal.timeout(deadlineMs) }))
      } catch (err) {
        log.warn({ err }, 'push: a batch could not be encrypted in a worker thread; encrypting it on the event loop')
        return here(payload, devices)
      }
    },
    close: async () => { await pool.destroy() }
  }
}
