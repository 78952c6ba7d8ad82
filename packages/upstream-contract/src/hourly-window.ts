/**
 * The upstream's hourly counting rule (docs/upstream.md, "Rate limits"), shared by the embedded provider's per-token buckets
 * and the gateway's per-key quotas: each (owner, entity) window opens at its first request and resets to
 * the full limit one hour later (fixed, not sliding). Synchronous and in memory; the gateway's Redis engine
 * implements the same rule in Lua.
 */
export const WINDOW_MS = 60 * 60 * 1000

export interface WindowState {
  entity: string
  limit: number
  used: number
  remaining: number
  resetsInSeconds: number
  /** Epoch ms the window opened. */
  windowStart: number
}

export function windowState (entity: string, limit: number, used: number, windowStart: number, now: number): WindowState {
  return {
    entity,
    limit,
    used,
    remaining: Math.max(0, limit - used),
    resetsInSeconds: Math.max(0, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
    windowStart
  }
}

interface Window { start: number, used: number }

export class HourlyWindows {
  readonly #owners = new Map<string, Map<string, Window>>()

  #window (owner: string, entity: string, now: number): Window {
    let byEntity = this.#owners.get(owner)
    if (byEntity === undefined) this.#owners.set(owner, byEntity = new Map())
    let w = byEntity.get(entity)
    if (w === undefined || now - w.start >= WINDOW_MS) byEntity.set(entity, w = { start: now, used: 0 })
    return w
  }

  /**
   * Counts one request when fewer than `limit + extra` were made in the window. `extra` is room above the
   * limit that still passes (the Enterprise plan's burst buffer); `remaining` is reported against `limit`.
   */
  take (owner: string, entity: string, limit: number, now: number, extra = 0): { allowed: boolean, state: WindowState } {
    const w = this.#window(owner, entity, now)
    const allowed = w.used < limit + extra
    if (allowed) w.used++
    return { allowed, state: windowState(entity, limit, w.used, w.start, now) }
  }

  /** Gives one request back, only within the window it was taken in. */
  refund (owner: string, entity: string, windowStart: number): void {
    const w = this.#owners.get(owner)?.get(entity)
    if (w !== undefined && w.start === windowStart && w.used > 0) w.used--
  }

  /** Every open window of an owner, sorted by entity (for `/my/usage`). */
  usage (owner: string, limit: number, now: number): WindowState[] {
    return [...(this.#owners.get(owner)?.entries() ?? [])]
      .filter(([, w]) => now - w.start < WINDOW_MS)
      .map(([entity, w]) => windowState(entity, limit, w.used, w.start, now))
      .sort((a, b) => a.entity.localeCompare(b.entity))
  }

  clear (): void {
    this.#owners.clear()
  }
}
