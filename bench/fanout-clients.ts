/**
 * The benchmark's subscribers, in their own process so they do not share the server's core. Each is a raw
 * TCP socket speaking just enough WebSocket (upgrade, masked subscribe frame, frame headers, pong): a full
 * client library per socket would make this process, not the server, the bottleneck at 10,000 sockets.
 * Latency is read from the record's `at` field without parsing the frame.
 */
import { connect, type Socket } from 'node:net'
import { now, type FromClients, type ToClients } from './fanout-shared.ts'

interface Peer { socket: Socket, rest: Buffer | null, ready: boolean, framesBeforeReady: number }

const CHANGE = Buffer.from('{"type":"change"')
const AT = Buffer.from('"at":"')
const CONCURRENCY = 200

let received = 0
let closes = 0
let latencies = new Float64Array(1024)
let phase: { total: number, start: number, done: (msg: FromClients) => void } | undefined
let phaseTimer: NodeJS.Timeout | undefined

function send (msg: FromClients): void {
  process.send?.(msg)
}

/** A masked text frame (clients must mask; an all-zero mask leaves the payload as is). */
function textFrame (json: string): Buffer {
  const payload = Buffer.from(json)
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
  return Buffer.concat([head, Buffer.alloc(4), payload])
}

function pongFrame (payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x8a, 0x80 | payload.length]), Buffer.alloc(4), payload])
}

function onChange (buf: Buffer, start: number, end: number): void {
  const at = buf.indexOf(AT, start)
  if (at < 0 || at > end) return
  const from = at + AT.length
  const sent = Number(buf.toString('latin1', from, buf.indexOf(34, from)))
  if (received >= latencies.length) {
    const grown = new Float64Array(latencies.length * 2)
    grown.set(latencies)
    latencies = grown
  }
  latencies[received++] = now() - sent
  if (phase !== undefined && received >= phase.total) finishPhase()
}

function onFrame (peer: Peer, opcode: number, buf: Buffer, start: number, end: number): void {
  if (opcode === 0x9) {
    peer.socket.write(pongFrame(buf.subarray(start, end)))
    return
  }
  if (opcode !== 0x1) return
  if (buf.compare(CHANGE, 0, CHANGE.length, start, Math.min(end, start + CHANGE.length)) === 0) return onChange(buf, start, end)
  if (!peer.ready && --peer.framesBeforeReady === 0) peer.ready = true
}

/** Splits a chunk into frames; keeps an incomplete tail for the next chunk. */
function onData (peer: Peer, chunk: Buffer): void {
  const buf = peer.rest === null ? chunk : Buffer.concat([peer.rest, chunk])
  let off = 0
  for (;;) {
    if (buf.length - off < 2) break
    let len = (buf[off + 1] as number) & 0x7f
    let head = 2
    if (len === 126) {
      if (buf.length - off < 4) break
      len = buf.readUInt16BE(off + 2)
      head = 4
    } else if (len === 127) {
      if (buf.length - off < 10) break
      len = Number(buf.readBigUInt64BE(off + 2))
      head = 10
    }
    if (buf.length - off < head + len) break
    onFrame(peer, (buf[off] as number) & 0x0f, buf, off + head, off + head + len)
    off += head + len
  }
  // Copy the tail: the read buffer is shared by every socket and overwritten by the next read.
  peer.rest = off < buf.length ? Buffer.from(buf.subarray(off)) : null
}

/**
 * One read buffer for every socket: with `onread` Node reads straight into it and calls back with no stream
 * machinery and no Buffer per read, so this process keeps up with the server (frames are handled before
 * the next read; only an incomplete tail is copied).
 */
const READ_BUFFER = Buffer.alloc(256 * 1024)

async function open (url: URL, subscribe: boolean): Promise<Peer> {
  return await new Promise((resolve, reject) => {
    // Touchline answers hello then subscribed before it is ready; the baseline says nothing.
    let header = ''
    let upgraded = false
    const onRead = (n: number): boolean => {
      if (upgraded) {
        onData(peer, READ_BUFFER.subarray(0, n))
        return true
      }
      header += READ_BUFFER.toString('latin1', 0, n)
      const end = header.indexOf('\r\n\r\n')
      if (end < 0) return true
      upgraded = true
      if (!header.startsWith('HTTP/1.1 101')) {
        reject(new Error(header.split('\r\n')[0]))
        return true
      }
      const extra = Buffer.from(header.slice(end + 4), 'latin1')
      if (extra.length > 0) onData(peer, extra)
      if (subscribe) socket.write(textFrame('{"op":"subscribe","ref":"b","leagues":[271],"snapshot":false}'))
      resolve(peer)
      return true
    }
    const socket = connect({ port: Number(url.port), host: url.hostname, noDelay: true, onread: { buffer: READ_BUFFER, callback: onRead } })
    const peer: Peer = { socket, rest: null, ready: !subscribe, framesBeforeReady: 2 }
    socket.on('error', reject)
    socket.on('close', () => { closes++ })
    socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
  })
}

async function connectAll (url: string, count: number, subscribe: boolean): Promise<void> {
  const target = new URL(url)
  const peers: Peer[] = []
  let failed = 0
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++
      try {
        peers.push(await open(target, subscribe))
      } catch {
        failed++
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  while (peers.some((p) => !p.ready)) await new Promise((resolve) => setTimeout(resolve, 20))
  send({ type: 'ready', connected: peers.length, failed })
}

function finishPhase (): void {
  if (phase === undefined) return
  const { start, done } = phase
  phase = undefined
  clearTimeout(phaseTimer)
  const sorted = latencies.subarray(0, received).sort()
  const pick = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  done({ type: 'reached', received, seconds: (now() - start) / 1000, p50: pick(0.5), p99: pick(0.99), max: sorted.at(-1) ?? 0, closes })
}

process.on('message', (msg: ToClients) => {
  if (msg.cmd === 'connect') {
    connectAll(msg.url, msg.count, msg.subscribe).catch((err: unknown) => { console.error(err); process.exit(1) })
    return
  }
  received = 0
  phase = { total: msg.total, start: now(), done: send }
  phaseTimer = setTimeout(finishPhase, msg.timeoutMs)
  // The server publishes only after this, so no frame of the phase is counted before the reset above.
  send({ type: 'armed' })
})
process.on('disconnect', () => process.exit(0))
