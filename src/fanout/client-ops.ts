/**
 * A WebSocket client's operations (docs/protocol.md): each frame is parsed at the edge, charged to the connection's
 * operation rate (`limit_exceeded` past it, the connection stays up), then answered in order. A subscribe
 * that reads the store holds the operations sent meanwhile in `queued` until it is done, so replies keep
 * the order of the requests.
 */
import { RESET, type Connection, type QueuedOp } from './connection.ts'
import { RateLimiter, takeToken, type HubLimits } from './limits.ts'
import { errorFrame, parseClientFrame, pongFrame, type AuthFrame } from '../protocol/control.ts'
import { serveReset, serveSubscribe, serveUnsubscribe, subscribeRequest, type FlowContext } from './subscribe.ts'

export class ClientOps {
  constructor (
    private readonly flow: FlowContext,
    private readonly limits: HubLimits,
    private readonly now: () => number = Date.now,
    /** A new token on an open connection (auth.ts refreshToken). */
    private readonly onAuth: (conn: Connection, frame: AuthFrame) => Promise<void> = async () => {},
    /**
     * Every fan's operations, across its connections (a token's `sub` on a key): a fan gets the rate of one
     * connection however many it holds, so `max_connections_per_fan` does not multiply it.
     */
    private readonly fanOps = new RateLimiter(limits.opsPerSecond, limits.opsBurst, now)
  ) {}

  /** One frame from the client. Never throws. */
  receive (conn: Connection, data: Buffer, isBinary: boolean): void {
    // ws still reads frames while a socket it was told to close says goodbye (4001, 4008, 4029): the hub has
    // let go of the connection, and a subscribe now would put it back in the index for good.
    if (conn.closed) return
    const parsed = parseClientFrame(data, isBinary, this.limits.maxFrameBytes)
    // Charged after parsing so the refusal carries the frame's ref; parsing is bounded by maxFrameBytes and
    // cheap next to what a subscribe costs.
    if (!this.allow(conn)) {
      const ref = parsed.ok ? parsed.frame.ref : parsed.error.ref
      this.flow.send(conn, errorFrame(ref, 'limit_exceeded', `more than ${this.limits.opsPerSecond} operations per second (burst ${this.limits.opsBurst})${conn.fan === undefined ? '' : ' for this fan, across its connections'}`))
      return
    }
    if (parsed.ok) this.dispatch(conn, parsed.frame)
    else this.flow.send(conn, parsed.error)
  }

  /** Takes a token from the connection's operation bucket, which starts full, and from its fan's. */
  private allow (conn: Connection): boolean {
    const now = this.now()
    conn.ops ??= { tokens: this.limits.opsBurst, at: now }
    if (!takeToken(conn.ops, now, this.limits.opsPerSecond, this.limits.opsBurst)) return false
    return conn.fan === undefined || this.fanOps.take(`${conn.key.name}\n${conn.fan.name}`)
  }

  /** The per-fan limiter, swept with the heartbeat. */
  get fanLimiter (): RateLimiter {
    return this.fanOps
  }

  private dispatch (conn: Connection, frame: QueuedOp): void {
    if (conn.busy) {
      conn.queued ??= []
      if (frame !== RESET && conn.queued.length >= this.limits.maxQueuedOps) this.flow.send(conn, errorFrame(frame.ref, 'limit_exceeded', 'too many operations in flight'))
      else conn.queued.push(frame)
      return
    }
    if (frame === RESET) return this.reset(conn)
    if (frame.op === 'ping') return this.flow.send(conn, pongFrame(frame.ref))
    if (frame.op === 'unsubscribe') return serveUnsubscribe(this.flow, conn, frame)
    if (frame.op === 'auth') return this.run(conn, () => this.onAuth(conn, frame))
    const req = subscribeRequest(frame)
    this.run(conn, () => serveSubscribe(this.flow, conn, req))
  }

  /**
   * Resets the connection after the log or the store was lost (serveReset): at once, or after the subscribe
   * in flight and before the operations queued behind it, so its replies keep their order. Any transport.
   */
  reset (conn: Connection): void {
    if (conn.closed) return
    if (conn.busy) {
      if (conn.queued?.[0] !== RESET) (conn.queued ??= []).unshift(RESET)
      return
    }
    this.run(conn, () => serveReset(this.flow, conn))
  }

  /** Runs an operation that reads the store; what arrives meanwhile waits in `queued`. */
  run (conn: Connection, task: () => Promise<void>): void {
    conn.busy = true
    const done = (): void => {
      conn.busy = false
      // Operations that arrived meanwhile, in order, until one of them is a subscribe that goes async again.
      for (let next = conn.queued?.shift(); next !== undefined && !conn.closed; next = conn.busy ? undefined : conn.queued?.shift()) {
        this.dispatch(conn, next)
      }
    }
    task().then(done, done)
  }
}
