/**
 * A connection's odds conflation (`conflate_ms`, docs/protocol.md "Odds"): at most one `odds` frame per
 * fixture per interval. A fixture's first odds frame goes out at once; the ones that come within the
 * interval after it are held and go out together at its end (Outgoing.conflated), and that starts the next
 * interval. One timer per connection, for the earliest fixture due; nothing is held for a fixture whose
 * interval has passed.
 */
import type { OddsRecord } from '../wire-model/model.ts'
import { Outgoing } from './outgoing.ts'

export class OddsConflation {
  /** Odds frames held per fixture, oldest first. */
  private readonly held = new Map<number, Outgoing[]>()
  /** When each fixture's last frame went out, ms; forgotten once its interval has passed. */
  private readonly sentAt = new Map<number, number>()
  private timer: NodeJS.Timeout | undefined

  constructor (
    readonly ms: number,
    /** Writes a (conflated) odds frame to the connection. */
    private readonly send: (out: Outgoing) => void,
    private readonly now: () => number = Date.now
  ) {}

  /** Takes an odds frame: true when it is held (it goes out later, conflated), false to send it now. */
  hold (out: Outgoing): boolean {
    const id = (out.record as OddsRecord).fixture_id
    const held = this.held.get(id)
    if (held !== undefined) {
      held.push(out)
      return true
    }
    const t = this.now()
    const last = this.sentAt.get(id)
    if (last === undefined || t - last >= this.ms) {
      this.sentAt.set(id, t)
      return false
    }
    this.held.set(id, [out])
    this.schedule(last + this.ms - t)
    return true
  }

  /** Frames held now, for the tests and the slow-consumer check's view of the connection. */
  get heldCount (): number {
    let n = 0
    for (const outs of this.held.values()) n += outs.length
    return n
  }

  /** Drops what is held (the connection closed or stopped taking odds). */
  clear (): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.held.clear()
    this.sentAt.clear()
  }

  private schedule (inMs: number): void {
    if (this.timer !== undefined) return
    this.timer = setTimeout(this.due, Math.max(0, inMs))
    this.timer.unref()
  }

  /** Sends every fixture whose interval has passed, forgets the quiet ones, and waits for the next. */
  private readonly due = (): void => {
    this.timer = undefined
    const t = this.now()
    let next = Infinity
    for (const [id, outs] of this.held) {
      const dueAt = (this.sentAt.get(id) ?? t) + this.ms
      if (dueAt > t) {
        next = Math.min(next, dueAt)
        continue
      }
      this.held.delete(id)
      this.sentAt.set(id, t)
      const out = Outgoing.conflated(outs)
      if (out !== undefined) this.send(out)
    }
    for (const [id, at] of this.sentAt) if (!this.held.has(id) && t - at >= this.ms) this.sentAt.delete(id)
    if (next !== Infinity) this.schedule(next - t)
  }
}
