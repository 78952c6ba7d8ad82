/**
 * The schedule changes the simulator applies (reschedule.ts): per fixture, in announcement order, and what
 * they make of its kick-off and state at an instant. Before its first change a fixture shows the kick-off that
 * change came from; from each announcement on, the kick-off it announced; from a postponement on, POSTPONED.
 * Changes can be added while the simulator runs (`force`, for tests); nothing else here changes.
 */
import type { ScheduleChange } from './reschedule.ts'

export class Timetable {
  readonly #byFixture = new Map<number, ScheduleChange[]>()

  constructor (changes: readonly ScheduleChange[] = []) {
    for (const change of changes) this.#insert(change)
  }

  #insert (change: ScheduleChange): void {
    const list = this.#byFixture.get(change.fixtureId) ?? []
    list.push(change)
    list.sort((a, b) => a.atMs - b.atMs)
    this.#byFixture.set(change.fixtureId, list)
  }

  /**
   * Adds a change, dropping the fixture's changes announced at or after it: what a test forces is what then
   * holds. A postponement ends the list (nothing after it).
   */
  force (change: ScheduleChange): void {
    const kept = (this.#byFixture.get(change.fixtureId) ?? []).filter((c) => c.atMs < change.atMs)
    this.#byFixture.set(change.fixtureId, kept)
    this.#insert(change)
  }

  has (fixtureId: number): boolean {
    return this.#byFixture.has(fixtureId)
  }

  /** Ids of the fixtures with any change. */
  ids (): IterableIterator<number> {
    return this.#byFixture.keys()
  }

  /** The fixture's changes, or every change, in announcement order. */
  list (fixtureId?: number): ScheduleChange[] {
    if (fixtureId !== undefined) return [...(this.#byFixture.get(fixtureId) ?? [])]
    return [...this.#byFixture.values()].flat().sort((a, b) => a.atMs - b.atMs || a.fixtureId - b.fixtureId)
  }

  /** Kick-off (unix s) shown at `nowMs`; `own` when the fixture has no change. */
  kickoffAt (fixtureId: number, own: number, nowMs: number): number {
    const list = this.#byFixture.get(fixtureId)
    if (list === undefined || list.length === 0) return own
    let kickoff = (list[0] as ScheduleChange).from
    for (const c of list) {
      if (c.atMs > nowMs) break
      kickoff = c.to
    }
    return kickoff
  }

  /** The postponement in effect at `nowMs`, if any. */
  postponedBy (fixtureId: number, nowMs: number): ScheduleChange | undefined {
    return this.#byFixture.get(fixtureId)?.find((c) => c.kind === 'postpone' && c.atMs <= nowMs)
  }

  /** Real ms of the fixture's latest announcement at or before `nowMs`; 0 if none. */
  lastAnnouncedAt (fixtureId: number, nowMs: number): number {
    return this.#byFixture.get(fixtureId)?.findLast((c) => c.atMs <= nowMs)?.atMs ?? 0
  }

  /** Fixtures with an announcement in (fromMs, toMs]. */
  announcedWithin (fromMs: number, toMs: number): number[] {
    const out: number[] = []
    for (const [id, list] of this.#byFixture) if (list.some((c) => c.atMs > fromMs && c.atMs <= toMs)) out.push(id)
    return out
  }
}
