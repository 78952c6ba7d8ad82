import type { Socket } from 'node:net'
import { describe, expect, it, onTestFinished } from 'vitest'
import WebSocket, { WebSocketServer } from 'ws'
import { directSocket, inOneWrite, textFrame, writeFrame } from '../../../src/fanout/writer.ts'
import { waitFor } from '../../helpers/wait.ts'

/** A ws server and a client connected to it, over a real socket (compressed when `deflate`). */
async function pair (deflate = false): Promise<{ server: WebSocket, client: WebSocket, received: string[] }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: deflate })
  onTestFinished(() => { wss.close() })
  await new Promise((resolve) => wss.once('listening', resolve))
  const { port } = wss.address() as { port: number }
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve))
  const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: deflate })
  const received: string[] = []
  client.on('message', (data, isBinary) => { expect(isBinary).toBe(false); received.push(data.toString()) })
  await new Promise((resolve) => client.once('open', resolve))
  onTestFinished(() => { client.terminate() })
  return { server: await accepted, client, received }
}

describe('pre-built frames', () => {
  it('are the text frames ws would send, in order with what ws sends itself, in one write per batch', async () => {
    const { server, received } = await pair()
    const socket = (server as unknown as { _socket: Socket })._socket
    expect(directSocket(server)).toBe(socket)
    const writes: number[] = []
    const writev = socket._writev?.bind(socket)
    const write = socket._write.bind(socket)
    socket._writev = (chunks, cb) => { writes.push(chunks.length); writev?.(chunks, cb) }
    socket._write = (chunk, enc, cb) => { writes.push(1); write(chunk, enc, cb) }
    const big = 'x'.repeat(70_000)
    const payloads = ['{"n":1}', `{"n":2,"pad":"${'y'.repeat(300)}"}`, `{"n":3,"pad":"${big}"}`].map((s) => Buffer.from(s))
    inOneWrite(() => {
      for (const p of payloads) writeFrame(server, socket, textFrame(p), p)
      server.send('{"n":4}')
    })
    await waitFor('received.length === 4', () => received.length === 4)
    expect(received).toEqual([...payloads.map((p) => p.toString()), '{"n":4}'])
    // Three pre-built frames and ws' own two-part frame, handed to the kernel at once.
    expect(writes).toEqual([5])
    // Outside a batch a frame is written at once, uncorked.
    const p = Buffer.from('{"n":5}')
    writeFrame(server, socket, textFrame(p), p)
    expect(writes).toEqual([5, 1])
    expect(socket.writableCorked).toBe(0)
    await waitFor('received.length === 5', () => received.length === 5)
    expect(received.at(-1)).toBe('{"n":5}')
  })

  it('go through ws.send, compressed and in order, on a connection that negotiated compression', async () => {
    const { server, received } = await pair(true)
    expect(server.extensions).toContain('permessage-deflate')
    expect(directSocket(server)).toBeUndefined()
    const socket = (server as unknown as { _socket: Socket })._socket
    const before = socket.bytesWritten
    const payloads = [1, 2, 3].map((n) => Buffer.from(`{"n":${n},"pad":"${'z'.repeat(2_000)}"}`))
    // ws deflates asynchronously and queues what follows: the frames and ws' own send keep their order.
    for (const p of payloads) writeFrame(server, directSocket(server), textFrame(p), p)
    server.send('{"n":4}')
    await waitFor('received.length === 4', () => received.length === 4)
    expect(received).toEqual([...payloads.map((p) => p.toString()), '{"n":4}'])
    // What went on the wire was compressed, not the pre-built frames (over 6,000 bytes uncompressed).
    expect(socket.bytesWritten - before).toBeLessThan(500)
  })

  it('writes nothing once the socket is closing', async () => {
    const { server, client, received } = await pair()
    server.close(1000, 'bye')
    const p = Buffer.from('{"late":true}')
    writeFrame(server, directSocket(server), textFrame(p), p)
    const code = await new Promise((resolve) => client.once('close', resolve))
    expect(code).toBe(1000)
    expect(received).toEqual([])
  })
})
