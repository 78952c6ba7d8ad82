/**
 * Snapshots compressed for the WebSocket's permessage-deflate (RFC 7692), and nothing else: a day's snapshot
 * is hundreds of KB of JSON (827 fixtures: 617 KB) and goes to every page that opens, while a change frame is
 * a few hundred bytes that per-socket compression would only make slower (http/websocket.ts).
 *
 * The extension is negotiated with no context takeover on either side, so each compressed message stands
 * alone, and ws itself compresses nothing (its threshold is out of reach): the change frames keep going
 * straight to the socket (writer.ts), uncompressed, which the RFC allows message by message. A snapshot is
 * compressed here in three parts, each by its own deflater ending on a sync flush: the frame's head and tail
 * (its ref and cursor, a few bytes) and, between them, the fixtures array, which is the same bytes for every
 * client of the same snapshot (snapshot-cache.ts) and so is compressed once for all of them. Deflate blocks
 * from separate streams, each byte-aligned by its flush and none final, read as one stream; the last four
 * bytes (the empty stored block of the flush) are dropped, as RFC 7692 §7.2.1 has it.
 */
import { constants, deflateRawSync } from 'node:zlib'
import type { SnapshotParts } from '../protocol/control.ts'

/** Snapshots smaller than this go as they are: compressing them saves little. */
export const DEFLATE_FROM = 16 * 1024

/**
 * Level 1: a snapshot is compressed on the event loop when it is first asked for, and a day's fixtures at
 * level 1 take a few ms and shrink about sevenfold (docs/benchmarks.md, "First load").
 */
const LEVEL = 1

/** The fixtures arrays compressed so far, by window size: dropped with their snapshot. */
const compressed = new WeakMap<Buffer, Map<number, Buffer>>()

/** One part: raw deflate ending on a sync flush (byte-aligned, not final). */
const deflatePart = (bytes: Buffer, windowBits: number): Buffer =>
  deflateRawSync(bytes, { level: LEVEL, windowBits, finishFlush: constants.Z_SYNC_FLUSH })

/**
 * The snapshot as the payload of a compressed message (RSV1 set), for a window of `windowBits` (the
 * `server_max_window_bits` negotiated, 15 by default).
 */
export function deflatedSnapshot (parts: SnapshotParts, windowBits: number): Buffer {
  let byBits = compressed.get(parts.fixtures)
  if (byBits === undefined) compressed.set(parts.fixtures, byBits = new Map())
  let fixtures = byBits.get(windowBits)
  if (fixtures === undefined) byBits.set(windowBits, fixtures = deflatePart(parts.fixtures, windowBits))
  const whole = Buffer.concat([deflatePart(parts.head, windowBits), fixtures, deflatePart(parts.tail, windowBits)])
  return whole.subarray(0, whole.length - 4)
}
