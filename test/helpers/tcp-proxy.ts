/**
 * A TCP proxy in front of a server, for connection-loss tests: clients connect through it, and `cut()`
 * destroys every connection at once (as a network drop would) while the proxy keeps accepting new ones,
 * so clients can reconnect. `pause()` refuses connections until `resume()`. `freeze()` is a hung link: every
 * connection, open or new, stays up but nothing is forwarded either way until `thaw()` (no error, no close).
 * `bytesDown()` counts what the server sent its clients: what a page's load cost on the wire.
 */
import { createServer, connect, type Socket } from 'node:net'

export interface TcpProxy {
  /** http://127.0.0.1:<port> */
  url: string
  port: number
  /** Destroys every open connection (both sides). */
  cut: () => void
  /** New connections are dropped at once until resume(). */
  pause: () => void
  resume: () => void
  /** Stops forwarding in both directions, on open and new connections; the sockets stay open. */
  freeze: () => void
  /** Forwards again, starting with what was held back. */
  thaw: () => void
  /** Bytes the server sent through the proxy so far (headers, bodies and WebSocket frames as on the wire). */
  bytesDown: () => number
  close: () => Promise<void>
}

export async function startTcpProxy (targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  const pairs = new Set<[Socket, Socket]>()
  let paused = false
  let frozen = false
  let down = 0
  const server = createServer((client) => {
    if (paused) { client.destroy(); return }
    const upstream = connect(targetPort, targetHost)
    upstream.on('data', (chunk: Buffer) => { down += chunk.length })
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    for (const s of pair) {
      sockets.add(s)
      s.on('error', () => {})
      s.on('close', () => { sockets.delete(s); pairs.delete(pair); client.destroy(); upstream.destroy() })
    }
    if (frozen) { client.pause(); upstream.pause() } else client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cut: () => { for (const s of sockets) s.destroy() },
    bytesDown: () => down,
    pause: () => { paused = true },
    resume: () => { paused = false },
    freeze: () => {
      frozen = true
      // Unread bytes stay in the paused sockets' buffers until thaw.
      for (const [client, upstream] of pairs) { client.unpipe(upstream); upstream.unpipe(client); client.pause(); upstream.pause() }
    },
    thaw: () => {
      frozen = false
      for (const [client, upstream] of pairs) client.pipe(upstream).pipe(client)
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
