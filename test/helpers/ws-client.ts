/**
 * A WebSocket test client over a real socket: records every JSON frame it receives and lets a test wait
 * for the next frame matching a predicate, or for the close code and reason.
 */
import WebSocket, { type ClientOptions } from 'ws'

export type Frame = Record<string, any>
type Predicate = (frame: Frame) => boolean

export interface Closed { code: number, reason: string }

export class WsTestClient {
  /** Every frame received, in order; `take` never removes from here. */
  readonly frames: Frame[] = []
  private readonly unread: Frame[] = []
  private readonly waiters = new Set<{ match: Predicate, resolve: (f: Frame) => void }>()
  readonly closed: Promise<Closed>

  private constructor (readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))
    })
    ws.on('error', () => {})
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame
      this.frames.push(frame)
      for (const w of this.waiters) {
        if (w.match(frame)) {
          this.waiters.delete(w)
          w.resolve(frame)
          return
        }
      }
      this.unread.push(frame)
    })
  }

  /** Opens a connection; rejects with the HTTP status when the upgrade is refused. */
  static async connect (url: string, opts: ClientOptions = {}): Promise<WsTestClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false, ...opts })
    const client = new WsTestClient(ws)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('unexpected-response', (_req, res) => {
        let body = ''
        res.on('data', (c: Buffer) => { body += c.toString() })
        res.on('end', () => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode, body })))
      })
      ws.once('error', reject)
    })
    return client
  }

  send (frame: Frame | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }

  /** The first unread frame matching `match` (consumed), waiting up to `timeoutMs` for it. */
  async take (match: Predicate | string, timeoutMs = 5000): Promise<Frame> {
    const pred: Predicate = typeof match === 'string' ? (f) => f.type === match : match
    const i = this.unread.findIndex(pred)
    if (i >= 0) return this.unread.splice(i, 1)[0] as Frame
    return await new Promise((resolve, reject) => {
      const waiter = { match: pred, resolve: (f: Frame) => { clearTimeout(timer); resolve(f) } }
      const timer = setTimeout(() => {
        this.waiters.delete(waiter)
        reject(new Error(`timed out waiting for a frame; last received: ${JSON.stringify(this.frames.slice(-10).map((f) => f.type))}`))
      }, timeoutMs)
      this.waiters.add(waiter)
    })
  }

  /** Sends a frame and waits for the reply carrying its `ref`. */
  async request (frame: Frame, timeoutMs = 5000): Promise<Frame> {
    this.send(frame)
    return await this.take((f) => f.ref === frame.ref && f.type !== 'snapshot' && f.type !== 'replay', timeoutMs)
  }

  /** Received change frames, in order. */
  changes (): Frame[] {
    return this.frames.filter((f) => f.type === 'change')
  }

  close (): void {
    this.ws.terminate()
  }
}
