/**
 * One change on its way out: the record, its position in the log, and the bytes each transport sends in
 * each format, built lazily and at most once per record however many clients receive it.
 */
import { conflateOdds } from '../protocol/conflate.ts'
import { deltaFrame, fullFrameJson, oddsDeltaJson } from '../protocol/frames.ts'
import type { FixtureOdds, Format, LiveFixture, OddsRecord } from '../wire-model/model.ts'
import { parseCursor } from '../store/record.ts'
import { isOddsRecord, isStandingsRecord, type LogRecord } from '../store/types.ts'
import { textFrame, type Transport } from './writer.ts'

export class Outgoing {
  private wsBytes: Buffer | undefined
  private sseBytes: Buffer | undefined
  private wsDeltaBytes: Buffer | undefined
  private sseDeltaBytes: Buffer | undefined
  private deltaJson: string | undefined
  private wsFrameBytes: Buffer | undefined
  private wsDeltaFrameBytes: Buffer | undefined
  /** A conflated odds frame's base: the odds version its changes apply to, for its `delta` frame. */
  private conflatedFrom: number | undefined

  private constructor (
    readonly record: LogRecord,
    /** The record as the store serialized it. */
    private readonly json: string,
    readonly epoch: string,
    readonly offset: number,
    /** The fixture (or odds image) at the version before this record, when the hub routed it; a delta needs it. */
    private readonly prev: LiveFixture | FixtureOdds | undefined
  ) {}

  /** Whether this is an odds record (sent only to connections that take odds, as an `odds` frame). */
  get odds (): boolean {
    return isOddsRecord(this.record)
  }

  /**
   * From a record the store just appended, with the JSON it serialized once for every listener, and the
   * fixture's previous version if the hub routed it (see LastVersions).
   */
  static of (record: LogRecord, json: string, prev?: LiveFixture | FixtureOdds): Outgoing {
    // Store cursors always parse; a malformed one (impossible today) sorts first rather than throwing in the tail.
    const pos = parseCursor(record.cursor) ?? { epoch: '', offset: 0 }
    return new Outgoing(record, json, pos.epoch, pos.offset, prev)
  }

  /**
   * Odds changes of one fixture, routed in log order to one connection, as one (protocol/conflate.ts); its
   * `delta` frame applies to the version the first one did, when that one had a delta. Undefined when
   * nothing is left to send.
   */
  static conflated (outs: readonly Outgoing[]): Outgoing | undefined {
    const first = outs[0]
    if (outs.length === 1 || first === undefined) return first
    const record = conflateOdds(outs.map((o) => o.record as OddsRecord))
    if (record === undefined) return undefined
    const merged = Outgoing.of(record, JSON.stringify(record))
    merged.conflatedFrom = first.oddsBase
    return merged
  }

  /** For an odds record: the version of the image its changes apply to, when its `delta` frame can say so. */
  private get oddsBase (): number | undefined {
    if (this.conflatedFrom !== undefined) return this.conflatedFrom
    const record = this.record as OddsRecord
    const prev = this.prev as FixtureOdds | undefined
    return prev !== undefined && prev.fixture_id === record.fixture_id && prev.version === record.odds.version - 1 ? prev.version : undefined
  }

  /**
   * From a replayed record, with its JSON as the store returned it (ReadSinceResult.json). Only a store that
   * does not return JSON costs a serialization here, once per record per replaying client. Replays stay
   * full in every format (docs/protocol.md, "Resume").
   */
  static fromRecord (record: LogRecord, json?: string): Outgoing {
    return Outgoing.of(record, json ?? JSON.stringify(record))
  }

  /** The bytes of this change for a transport and format. */
  bytes (transport: Transport, format: Format): Buffer {
    if (format === 'delta') return transport === 'ws' ? this.wsDelta : this.sseDelta
    return transport === 'ws' ? this.ws : this.sse
  }

  /** The whole WebSocket frame (header and payload) in a format, built once for every socket (writer.ts). */
  wsFrame (format: Format): Buffer {
    if (format === 'delta') return (this.wsDeltaFrameBytes ??= textFrame(this.wsDelta))
    return (this.wsFrameBytes ??= textFrame(this.ws))
  }

  /** The change frame's JSON in a format (for bodies that gather several frames, such as /v1/changes). */
  frameJson (format: Format): string {
    return format === 'delta' ? this.delta() : fullFrameJson(this.record, this.json)
  }

  /**
   * The WebSocket change frame as one Buffer: ws would convert a string on every `send`, a Buffer is
   * written as is to each socket.
   */
  get ws (): Buffer {
    this.wsBytes ??= Buffer.from(fullFrameJson(this.record, this.json))
    return this.wsBytes
  }

  /** The SSE event: `id` is the cursor, so a reconnecting EventSource resumes with Last-Event-ID. */
  get sse (): Buffer {
    this.sseBytes ??= sseEvent(this.record.cursor, this.sseName, fullFrameJson(this.record, this.json))
    return this.sseBytes
  }

  /** The `delta` frame; the full one when the previous version is unknown (the client then replaces its copy). */
  get wsDelta (): Buffer {
    this.wsDeltaBytes ??= Buffer.from(this.delta())
    return this.wsDeltaBytes
  }

  get sseDelta (): Buffer {
    this.sseDeltaBytes ??= sseEvent(this.record.cursor, this.sseName, this.delta())
    return this.sseDeltaBytes
  }

  /** The SSE event name: `change`, `odds` for an odds record, `standings` for a league's table. */
  private get sseName (): string {
    if (this.odds) return 'odds'
    return isStandingsRecord(this.record) ? 'standings' : 'change'
  }

  private delta (): string {
    if (this.conflatedFrom !== undefined) this.deltaJson ??= oddsDeltaJson(this.record as OddsRecord, this.conflatedFrom)
    this.deltaJson ??= deltaFrame(this.prev, this.record, this.json)
    return this.deltaJson
  }
}

const sseEvent = (cursor: string, event: string, data: string): Buffer => Buffer.from(`id: ${cursor}\nevent: ${event}\ndata: ${data}\n\n`)
