/**
 * Writing change frames at the floor (issue 17): each frame is framed once per record and format (the
 * WebSocket header built by ws' own `Sender.frame`, as Socket.IO's broadcast does) and the same bytes are
 * written straight to every matching socket, so no per-subscriber framing, no per-subscriber copy.
 *
 * Frames for one socket within one batch go out in one write: `inOneWrite` corks each socket at its first
 * write in the batch and uncorks every one of them when the batch ends (Node then hands the kernel one
 * writev). Outside a batch a frame is written at once: corking a single write only costs a buffered entry
 * and an uncork per socket, which is most of what separates a broadcast loop from the bare write loop.
 * The hub routes the records of one tick as one batch when there are several (delivery.ts).
 *
 * Why writing under ws is safe: with compression off and no Blob ever sent, ws' Sender writes each frame to
 * the socket synchronously and queues nothing, so frames written here and control frames sent through ws
 * reach the socket in call order. `writeFrame` checks that anyway and falls back to `ws.send` whenever the
 * Sender is busy or the socket is not open.
 */
import type { Socket } from 'node:net'
import * as wsModule from 'ws'
import WebSocket from 'ws'

interface SenderInternals { _state: number, _queue: unknown[] }
interface WebSocketInternals { _socket: Socket | null, _sender: SenderInternals | null }
type Framer = (data: Buffer, options: { fin: boolean, opcode: number, mask: boolean, readOnly: boolean, rsv1: boolean }) => Buffer[]

// Sender is exported by ws (ESM and CommonJS alike) but not declared by @types/ws.
const frame = (wsModule as unknown as { Sender: { frame: Framer } }).Sender.frame
const TEXT_FRAME = { fin: true, opcode: 0x1, mask: false, readOnly: false, rsv1: false }
const TEXT = { binary: false } as const
/** ws' Sender state when nothing is being compressed or read (lib/sender.js DEFAULT). */
const SENDER_IDLE = 0

/** A complete unmasked text frame around `payload`, in one Buffer. */
export function textFrame (payload: Buffer): Buffer {
  return Buffer.concat(frame(payload, TEXT_FRAME))
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
 * Writes a pre-built frame (`textFrame(payload)`) to the socket (corked until the batch ends inside
 * `inOneWrite`); `payload` is what ws is given instead when it cannot be bypassed. Nothing is written once
 * the socket is closing.
 */
export function writeFrame (ws: WebSocket, framed: Buffer, payload: Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return
  const { _socket: socket, _sender: sender } = ws as unknown as WebSocketInternals
  if (socket === null || sender === null || sender._state !== SENDER_IDLE || sender._queue.length > 0) {
    ws.send(payload, TEXT)
    return
  }
  if (batches > 0 && socket.writableCorked === 0) {
    socket.cork()
    corked.push(socket)
  }
  socket.write(framed)
}
