/**
 * The storm's clients (bench:fanout `--tokens`, fanout-tokens.ts), in their own process: raw TCP sockets
 * speaking just enough WebSocket to send the upgrade and read the first frame. Each connects with the key
 * (`?api_token=bench`) or with a token of its own (`Authorization: Bearer <jwt>`, its own `sub`), minted
 * before the storm; the storm opens them evenly over `spreadMs` and times each from its connect call to
 * its `hello` frame.
 */
import { connect, type Socket } from 'node:net'
import { now } from './fanout-shared.ts'
import { minter, type Credential, type FromStorm, type StormResult, type ToStorm } from './fanout-tokens.ts'

const HELLO = Buffer.from('{"type":"hello"')
const TIMEOUT_MS = 120_000

function send (msg: FromStorm): void {
  process.send?.(msg)
}

/**
 * Opens one connection; calls `settled` once, with the time its hello frame arrived or why it failed
 * (the status line of a refused upgrade, a socket error's code, or `closed`).
 */
function open (url: URL, credential: Credential, token: string | undefined, settled: (outcome: { at: number } | { failure: string }, socket: Socket) => void): Socket {
  let buf: Buffer | null = null
  let upgraded = false
  let done = false
  const finish = (outcome: { at: number } | { failure: string }): void => {
    if (done) return
    done = true
    settled(outcome, socket)
  }
  const socket = connect({ port: Number(url.port), host: url.hostname, noDelay: true })
  socket.on('data', (chunk: Buffer) => {
    if (done) return
    buf = buf === null ? chunk : Buffer.concat([buf, chunk])
    let off = 0
    if (!upgraded) {
      const end = buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = buf.toString('latin1', 0, end)
      if (!head.startsWith('HTTP/1.1 101')) {
        finish({ failure: head.split('\r\n')[0] ?? 'no status line' })
        socket.destroy()
        return
      }
      upgraded = true
      off = end + 4
    }
    // The first frame the server sends is hello; wait for the whole of it.
    buf = buf.subarray(off)
    if (buf.length < 2) return
    let len = (buf[1] as number) & 0x7f
    let head = 2
    if (len === 126) {
      if (buf.length < 4) return
      len = buf.readUInt16BE(2)
      head = 4
    }
    if (buf.length < head + len) return
    const payload = buf.subarray(head, head + len)
    if (payload.subarray(0, HELLO.length).equals(HELLO)) finish({ at: now() })
    else finish({ failure: `first frame not hello: ${payload.toString('utf8', 0, 80)}` })
  })
  socket.on('error', (err: NodeJS.ErrnoException) => finish({ failure: err.code ?? err.message }))
  socket.on('close', () => finish({ failure: 'closed before hello' }))
  const query = credential === 'none' ? '?api_token=bench' : ''
  const auth = token === undefined ? '' : `Authorization: Bearer ${token}\r\n`
  socket.write(`GET ${url.pathname}${query} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${auth}` +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
  return socket
}

let prepared: { url: URL, credential: Credential, tokens: string[], count: number, round: number } | undefined

async function mintAll (msg: Extract<ToStorm, { cmd: 'prepare' }>, prefix: string, count: number): Promise<string[]> {
  if (msg.credential === 'none') return []
  const mint = await minter(msg.signing, msg.credential)
  const tokens: string[] = []
  for (let i = 0; i < count; i += 100) {
    tokens.push(...await Promise.all(Array.from({ length: Math.min(100, count - i) }, async (_, j) => await mint(`${prefix}-${i + j}`))))
  }
  return tokens
}

/** `count` connections, 20 at a time, each closed once it has its hello: the server's JIT warmed on this kind. */
async function warmUp (url: URL, credential: Credential, tokens: string[], count: number): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < count) {
      const i = next++
      await new Promise<void>((resolve, reject) => {
        open(url, credential, tokens[i], (outcome, socket) => {
          socket.destroy()
          if ('failure' in outcome) reject(new Error(`warm-up connection refused: ${outcome.failure}`))
          else resolve()
        })
      })
    }
  }))
}

function stormNow (spreadMs: number): void {
  if (prepared === undefined) throw new Error('go before prepare')
  const { url, credential, tokens, count, round } = prepared
  const starts = new Float64Array(count)
  const times: number[] = []
  const sockets: Socket[] = []
  const failures: Record<string, number> = {}
  let failed = 0
  let lastHello = 0
  let lastOpen = 0
  let next = 0
  let finished = false
  const t0 = now()
  const report = (): void => {
    if (finished) return
    finished = true
    clearTimeout(timer)
    const sorted = [...times].sort((a, b) => a - b)
    const pick = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
    const result: StormResult = { credential, round, count, opened: times.length, failed, failures, allMs: lastHello - t0, openSpreadMs: lastOpen - t0, overOneSecond: sorted.filter((t) => t >= 1000).length, p50: pick(0.5), p90: pick(0.9), p99: pick(0.99), max: sorted.at(-1) ?? NaN }
    send({ type: 'done', ...result })
  }
  const timer = setTimeout(report, TIMEOUT_MS)
  const settled = (i: number) => (outcome: { at: number } | { failure: string }): void => {
    if ('at' in outcome) {
      times.push(outcome.at - (starts[i] as number))
      lastHello = Math.max(lastHello, outcome.at)
    } else {
      failed++
      failures[outcome.failure] = (failures[outcome.failure] ?? 0) + 1
    }
    if (times.length + failed === count) report()
  }
  // Connection i is due at t0 + i * spreadMs / count; each tick opens every one due (a late timer opens a batch).
  const tick = (): void => {
    const elapsed = now() - t0
    while (next < count && next * spreadMs / count <= elapsed) {
      const i = next++
      starts[i] = now()
      sockets.push(open(url, credential, tokens[i], settled(i)))
    }
    lastOpen = now()
    if (next < count) setTimeout(tick, 1)
  }
  tick()
}

process.on('message', (msg: ToStorm) => {
  if (msg.cmd === 'go') return stormNow(msg.spreadMs)
  const url = new URL(msg.url)
  ;(async () => {
    const warm = await mintAll(msg, `warm-${msg.round}`, msg.warmup)
    const tokens = await mintAll(msg, `fan-${msg.round}`, msg.count)
    await warmUp(url, msg.credential, warm, msg.warmup)
    await new Promise((resolve) => setTimeout(resolve, 500))
    prepared = { url, credential: msg.credential, tokens, count: msg.count, round: msg.round }
    send({ type: 'prepared' })
  })().catch((err: unknown) => { console.error(err); process.exit(1) })
})
process.on('disconnect', () => process.exit(0))
