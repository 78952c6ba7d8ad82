/**
 * Writing change frames at the floor (issue 17): each frame is framed once per record and format (the
 * WebSocket header built by ws' own `Sender.frame`, as Socket.IO's broadcast does) and the same bytes are
 * written straight to every matching socket, so no per-subscriber framing, no per-subscriber copy.
 *
 * Frames for one socket within one tick go out in one write: the first write of a tick corks the socket and
 * one `process.nextTick` uncorks every socket corked in that tick (Node then hands the kernel one writev).
 *
 * Why writing under ws is safe: with compression off and no Blob ever sent, ws' Sender writes each frame to
 * the socket synchronously and queues nothing, so frames written here and control frames sent through ws
 * reach the socket in call order. `write` checks that anyway and falls back to `ws.send` whenever the
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

const corked: Socket[] = []

function uncorkAll (): void {
  for (const socket of corked) socket.uncork()
  corked.length = 0
}

/**
 * Writes a pre-built frame (`textFrame(payload)`) to the socket, corked until the end of the tick; `payload`
 * is what ws is given instead when it cannot be bypassed. Nothing is written once the socket is closing.
 */
export function writeFrame (ws: WebSocket, framed: Buffer, payload: Buffer): void {
  if (ws.readyState !== WebSocket.OPEN) return
  const { _socket: socket, _sender: sender } = ws as unknown as WebSocketInternals
  if (socket === null || sender === null || sender._state !== SENDER_IDLE || sender._queue.length > 0) {
    ws.send(payload, TEXT)
    return
  }
  if (socket.writableCorked === 0) {
    socket.cork()
    if (corked.push(socket) === 1) process.nextTick(uncorkAll)
  }
  socket.write(framed)
}
