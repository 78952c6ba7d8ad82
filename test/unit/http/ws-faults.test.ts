import { Writable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { pino } from 'pino'
import { describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { wsErrorHandler } from '../../../src/http/ws-faults.ts'

function setup () {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({ write (chunk, _enc, done) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); done() } })
  let now = 0
  const handle = wsErrorHandler(pino({ level: 'debug' }, stream), { burst: 3, windowMs: 60_000, now: () => now })
  let terminated = 0
  const socket = { terminate: () => { terminated++ } } as unknown as WebSocket
  const request = { ip: '203.0.113.9' } as FastifyRequest
  const fault = (code: string): Error => Object.assign(new RangeError('Max payload size exceeded'), { code })
  return { lines, handle: (err: Error) => handle(err, socket, request), advance: (ms: number) => { now += ms }, terminated: () => terminated, fault }
}

describe('WebSocket errors', () => {
  it('logs client protocol violations at warn without stack, at most `burst` a window, then says how many were left out', () => {
    const t = setup()
    for (let i = 0; i < 50; i++) t.handle(t.fault(i % 2 === 0 ? 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' : 'WS_ERR_INVALID_UTF8'))
    expect(t.lines).toHaveLength(3)
    expect(t.lines.every((l) => l.level === 40 && l.err === undefined && l.ip === '203.0.113.9')).toBe(true)
    expect(JSON.stringify(t.lines)).not.toContain('at ')
    t.advance(60_000)
    t.handle(t.fault('WS_ERR_INVALID_UTF8'))
    expect(t.lines.at(-1)).toMatchObject({ level: 40, code: 'WS_ERR_INVALID_UTF8', suppressed: 47 })
    // ws has already closed the socket with the protocol's code: nothing to cut.
    expect(t.terminated()).toBe(0)
  })

  it('a peer reset is debug; anything else is an error of ours and cuts the socket', () => {
    const t = setup()
    t.handle(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))
    t.handle(new TypeError('handler bug'))
    expect(t.lines.map((l) => l.level)).toEqual([20, 50])
    expect(t.terminated()).toBe(2)
  })
})
