/**
 * A TCP proxy in front of a server, for connection-loss tests: clients connect through it, and `cut()`
 * destroys every connection at once (as a network drop would) while the proxy keeps accepting new ones,
 * so clients can reconnect. `pause()` refuses connections until `resume()`.
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
  close: () => Promise<void>
}

export async function startTcpProxy (targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let paused = false
  const server = createServer((client) => {
    if (paused) { client.destroy(); return }
    const upstream = connect(targetPort, targetHost)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => {})
      s.on('close', () => { sockets.delete(s); client.destroy(); upstream.destroy() })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    cut: () => { for (const s of sockets) s.destroy() },
    pause: () => { paused = true },
    resume: () => { paused = false },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
