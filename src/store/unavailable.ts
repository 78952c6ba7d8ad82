/**
 * Telling a Redis outage (down, restarting, unreachable, a frozen link) from a bug. Callers answer an outage
 * with a clear "unavailable" (HTTP 503, WebSocket `unavailable`) and a bug with the usual 500 / `internal`.
 *
 * ioredis rejects with a `ReplyError` when Redis answered with an error, and with other errors when it got
 * no answer (connection closed, command timed out, retries exhausted, refused). An answer is a bug (a script
 * error, a wrong type), except the replies Redis gives while it cannot serve (loading its data after a
 * restart, busy in a script, a replica without its master): those are outages too.
 */
import { ReplyError } from 'ioredis'
import { AppError, ErrorCodes } from '../errors.ts'

/**
 * Seconds a client is asked to wait (`retry-after`) when an answer needs the store while it is down: about
 * how long Redis takes to restart or fail over, and short enough that clients come back soon after.
 */
export const OUTAGE_RETRY_AFTER_S = 5

export class StoreUnavailableError extends AppError {
  constructor (cause: unknown) {
    super(ErrorCodes.STORE_UNAVAILABLE, 'the shared store (Redis) cannot be reached', { cause })
    this.name = 'StoreUnavailableError'
  }
}

/** Redis error codes (the first word of the reply) that mean "cannot serve right now", not "you are wrong". */
const UNAVAILABLE_REPLIES = new Set(['LOADING', 'BUSY', 'MASTERDOWN', 'TRYAGAIN', 'CLUSTERDOWN', 'READONLY', 'NOREPLICAS'])
/** Programming errors raised inside the client are never an outage. */
const BUGS = [TypeError, RangeError, SyntaxError, ReferenceError]

/** Whether `err`, from a Redis call, means Redis could not serve it. */
export function isRedisOutage (err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true
  if (!(err instanceof Error) || BUGS.some((bug) => err instanceof bug)) return false
  if (err instanceof ReplyError) return UNAVAILABLE_REPLIES.has(err.message.split(' ', 1)[0] ?? '')
  return true
}

/** Whether `err` is a store outage, as raised by the store (StoreUnavailableError). */
export function isStoreUnavailable (err: unknown): err is StoreUnavailableError {
  return err instanceof StoreUnavailableError
}

/** Runs a Redis call; an outage rejects as StoreUnavailableError, anything else as it came. */
export async function guarded<T> (call: Promise<T>): Promise<T> {
  try {
    return await call
  } catch (err) {
    throw isRedisOutage(err) && !(err instanceof StoreUnavailableError) ? new StoreUnavailableError(err) : err
  }
}
