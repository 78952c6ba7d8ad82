/**
 * Writing change frames at the floor: each frame is framed once per record and format (the
 * WebSocket header built by ws' own `Sender.frame`, as Socket.IO's broadcast does) and the same bytes are
 * written straight to every matching socket, so no per-subscriber framing, no per-subscriber copy.
 *
 * Frames for one socket within one batch go out in one write: `inOneWrite` corks each socket at its first
 * write in the batch and uncorks every one of them when the batch ends (Node then hands the kernel one
 * writev). Outside a batch a frame is written at once: corking a single write only costs a buffered entry
 * and an uncork per socket, which is most of what separates a broadcast loop from the bare write loop.
 * The hub routes the records of one tick as one batch when there are several (delivery.ts).
 *
 * Why writing under ws is safe: with ws compressing nothing and no Blob ever sent, ws' Sender writes each
 * frame to the socket synchronously and queues nothing (its queue is only for deflating and for reading a
 * Blob), so frames written here and control frames sent through ws reach the socket in call order. The hub's
 * permessage-deflate (http/websocket.ts) is negotiated with a threshold ws never reaches: ws compresses nothing,
 * and the only compressed messages, snapshots (deflate.ts), are compressed here and written like the rest.
 * Which extensions a connection negotiated is known once it is open: `directSocket` decides then, and one
 * with another extension (never one of the hub's) has every frame go through `ws.send`. Deciding
 * once keeps ws' Sender and its queue out of the per-delivery path: at 20,000 connections each object a
 * delivery touches is likely a cache miss, and leaving those two out gave 4-9 % more deliveries per CPU-second
 * and a p99 8-12 % lower (bench/FANOUT.md, session 6).
 */
import type { Socket } from 'node:net'
import * as wsModule from 'ws'
import WebSocket from 'ws'

/** How a connection receives frames: a WebSocket, or a Server-Sent Events response. */
export type Transport = 'ws' | 'sse'

interface PerMessageDeflate { _threshold: number, params: Record<string, unknown>, _inflate: { close: () => void } | null }
interface WebSocketInternals { _socket: Socket | null, _extensions: Record<string, PerMessageDeflate | undefined> }
type Framer = (data: Buffer, options: { fin: boolean, opcode: number, mask: boolean, readOnly: boolean, rsv1: boolean }) => Buffer[]

// Sender is exported by ws (ESM and CommonJS alike) but not declared by @types/ws.
const frame = (wsModule as unknown as { Sender: { frame: Framer } }).Sender.frame
const TEXT_FRAME = { fin: true, opcode: 0x1, mask: false, readOnly: false, rsv1: false }
const COMPRESSED_TEXT_FRAME = { ...TEXT_FRAME, rsv1: true }
const DEFLATE = 'permessage-deflate'
const TEXT = { binary: false } as const

/** A complete unmasked text frame around `payload`, in one Buffer. */
export function textFrame (payload: Buffer): Buffer {
  return Buffer.concat(frame(payload, TEXT_FRAME))
}

/** A complete unmasked text frame around a payload compressed for permessage-deflate (RSV1 set). */
export function compressedFrame (payload: Buffer): Buffer {
  return Buffer.concat(frame(payload, COMPRESSED_TEXT_FRAME))
}

/**
 * The server window of the permessage-deflate a WebSocket negotiated, when ws compresses nothing itself (no
 * context takeover, threshold out of reach) and the window is one node:zlib's raw deflate takes (9 to 15);
 * undefined otherwise.
 */
export function deflateWindow (ws: WebSocket): number | undefined {
  const deflate = (ws as unknown as WebSocketInternals)._extensions[DEFLATE]
  if (deflate === undefined || deflate.params.server_no_context_takeover !== true || deflate._threshold !== Number.MAX_SAFE_INTEGER) return undefined
  const bits = typeof deflate.params.server_max_window_bits === 'number' ? deflate.params.server_max_window_bits : 15
  return bits >= 9 && bits <= 15 ? bits : undefined
}

/**
 * Closes the inflater ws made to read a client's compressed message (a browser compresses each one it
 * sends): about 40 KB of zlib state and window a connection would otherwise keep for its life, for the few
 * operations a client sends; the next compressed one makes another. Call it once a message is read: ws
 * reads one message at a time and is done with its inflater when the message is emitted.
 */
export function releaseInflater (ws: WebSocket): void {
  const deflate = (ws as unknown as WebSocketInternals)._extensions[DEFLATE]
  if (deflate?._inflate == null) return
  deflate._inflate.close()
  deflate._inflate = null
}

/** Sockets corked by the open batch. */
const corked: Socket[] = []
let batches = 0

/**
 * Runs `write` with every socket it writes to corked, then uncorks them: the frames `write` sends to one
 * socket go out in one write. Nests: the outermost batch uncorks.
 */
export function inOneWrite (write: () => void): void {
  batches++
  try {
    write()
  } finally {
    if (--batches === 0) {
      for (const socket of corked) socket.uncork()
      corked.length = 0
    }
  }
}

/**
 * The socket under an open WebSocket when frames may be written to it directly (no extension negotiated, or
 * only a permessage-deflate with which ws compresses nothing: ws' Sender then never queues), undefined when
 * every frame must go through `ws.send`.
 */
export function directSocket (ws: WebSocket): Socket | undefined {
  const { _socket: socket, _extensions: extensions } = ws as unknown as WebSocketInternals
  const names = Object.keys(extensions)
  const plain = names.length === 0 || (names.length === 1 && names[0] === DEFLATE && deflateWindow(ws) !== undefined)
  return socket !== null && plain ? socket : undefined
}

/**
 * Writes a pre-built frame (`textFrame(payload)`) to `socket`, the connection's `directSocket` (corked until
 * the batch ends inside `inOneWrite`); without one, `payload` goes through `ws.send`. Nothing is written
 * once the WebSocket is closing.
 */
export function writeFrame (ws: WebSocket, socket: Socket | undefined, framed: Buffer, payload: Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return
  if (socket === undefined) {
    ws.send(payload, TEXT)
    return
  }
  if (batches > 0 && socket.writableCorked === 0) {
    socket.cork()
    corked.push(socket)
  }
  socket.write(framed)
}
