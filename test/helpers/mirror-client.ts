/**
 * A WebSocket client that holds the fixtures it follows, as a real client of the protocol does: the
 * snapshot, then every change frame applied in order (`full` frames replace the fixture, `delta` frames are
 * applied to it with applyDelta). A version jump means a lost frame: the client subscribes again with
 * `since`, the cursor of the last frame it applied for that fixture, and takes the replay (full frames)
 * from there, skipping versions it already holds.
 */
import WebSocket from 'ws'
import { applyDelta } from '@touchline/client'
import type { DeltaChangeFrame as DeltaFrame } from '../../src/wire-model/model.ts'
import type { LiveFixture } from '../../src/wire-model/model.ts'

export interface MirrorOptions {
  url: string
  leagues: number[]
  format: 'full' | 'delta'
  /** Drops the change frame (as if lost on the way) when this returns true. */
  lose?: (frame: { cursor: string, fixture_id: number }) => boolean
}

export class MirrorClient {
  readonly fixtures = new Map<number, LiveFixture>()
  /** Cursor of the last frame applied, per fixture: where to resume after a gap in that fixture. */
  private readonly applied = new Map<number, string>()
  /** Cursor of the last change frame received. */
  cursor = ''
  frames = 0
  bytes = 0
  /** Resubscriptions made to fill a version jump in delta frames. */
  gaps = 0
  /** Version jumps seen (a frame more than one version ahead of the copy held), whole or delta frames. */
  jumps = 0
  private refs = 0

  private constructor (private readonly ws: WebSocket, private readonly opts: MirrorOptions) {
    ws.on('message', (data: Buffer) => this.receive(data))
  }

  static async open (opts: MirrorOptions): Promise<MirrorClient> {
    const ws = new WebSocket(opts.url, { perMessageDeflate: false })
    const client = new MirrorClient(ws, opts)
    await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject) })
    const subscribed = new Promise<void>((resolve) => { client.onSubscribed = resolve })
    client.subscribe({ snapshot: true })
    await subscribed
    return client
  }

  private onSubscribed: (() => void) | undefined

  close (): void {
    this.ws.close()
  }

  private subscribe (how: { snapshot: boolean, since?: string }): void {
    this.ws.send(JSON.stringify({ op: 'subscribe', ref: `s${++this.refs}`, leagues: this.opts.leagues, format: this.opts.format, ...how }))
  }

  private receive (data: Buffer): void {
    const frame = JSON.parse(data.toString()) as { type: string, [k: string]: any }
    if (frame.type === 'subscribed') this.onSubscribed?.()
    if (frame.type === 'snapshot') for (const f of frame.fixtures as LiveFixture[]) this.take(f)
    if (frame.type !== 'change') return
    if (this.opts.lose?.(frame as unknown as { cursor: string, fixture_id: number }) === true) return
    this.frames++
    this.bytes += data.length
    this.cursor = frame.cursor
    const held = this.fixtures.get(frame.fixture_id)
    if (frame.fixture !== undefined) {
      // A whole frame heals a jump by itself: the server sends one when it has no base for a delta.
      if (held !== undefined && (frame.fixture as LiveFixture).version > held.version + 1) this.jumps++
      if (this.take(frame.fixture as LiveFixture)) this.applied.set(frame.fixture_id, frame.cursor)
      return
    }
    const delta = frame as unknown as DeltaFrame
    if (held !== undefined && delta.version <= held.version) return
    if (held === undefined || delta.version !== held.version + 1) {
      this.jumps++
      this.gaps++
      const since = this.applied.get(frame.fixture_id)
      this.subscribe(since === undefined ? { snapshot: true } : { since, snapshot: false })
      return
    }
    this.fixtures.set(frame.fixture_id, applyDelta(held, delta))
    this.applied.set(frame.fixture_id, frame.cursor)
  }

  /** Takes a whole fixture unless an older version than the one held; true when taken. */
  private take (f: LiveFixture): boolean {
    const held = this.fixtures.get(f.id)
    if (held !== undefined && f.version <= held.version) return false
    this.fixtures.set(f.id, f)
    return true
  }
}
