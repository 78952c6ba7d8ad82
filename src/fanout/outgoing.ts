/**
 * One change on its way out: the record, its position in the log, and the bytes each transport sends,
 * built lazily and at most once per record however many clients receive it (DESIGN §4).
 */
import type { ChangeRecord } from '../live/types.ts'
import { parseCursor } from '../store/record.ts'
import { changeFrameJson } from './protocol.ts'

export class Outgoing {
  private wsBytes: Buffer | undefined
  private sseBytes: Buffer | undefined

  private constructor (
    readonly record: ChangeRecord,
    /** The record as the store serialized it. */
    private readonly json: string,
    readonly epoch: string,
    readonly offset: number
  ) {}

  /** From a record the store just appended, with the JSON it serialized once for every listener. */
  static of (record: ChangeRecord, json: string): Outgoing {
    // Store cursors always parse; a malformed one (impossible today) sorts first rather than throwing in the tail.
    const pos = parseCursor(record.cursor) ?? { epoch: '', offset: 0 }
    return new Outgoing(record, json, pos.epoch, pos.offset)
  }

  /**
   * From a replayed record, with its JSON as the store returned it (ReadSinceResult.json). Only a store that
   * does not return JSON costs a serialization here, once per record per replaying client.
   */
  static fromRecord (record: ChangeRecord, json?: string): Outgoing {
    return Outgoing.of(record, json ?? JSON.stringify(record))
  }

  /**
   * The WebSocket change frame as one Buffer: ws would convert a string on every `send`, a Buffer is
   * written as is to each socket.
   */
  get ws (): Buffer {
    this.wsBytes ??= Buffer.from(changeFrameJson(this.json))
    return this.wsBytes
  }

  /** The SSE event: `id` is the cursor, so a reconnecting EventSource resumes with Last-Event-ID. */
  get sse (): Buffer {
    this.sseBytes ??= Buffer.from(`id: ${this.record.cursor}\nevent: change\ndata: ${changeFrameJson(this.json)}\n\n`)
    return this.sseBytes
  }
}
