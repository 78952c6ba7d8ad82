/**
 * Errors on an established WebSocket, as @fastify/websocket reports them. Its default logs every one at
 * error level with a stack, so a client sending 1 MB frames or invalid UTF-8 could flood the logs. A
 * protocol violation (ws codes `WS_ERR_*`: oversize frame, invalid UTF-8, bad opcode...) is the client's
 * fault and ws has already closed the socket with the matching code (1009, 1007, 1002): it is logged at
 * warn, without stack, at most `burst` lines per `windowMs` whatever clients do; the next line says how
 * many were left out. A peer resetting the connection is debug. Anything else is ours: error, socket cut.
 */
import type { FastifyRequest } from 'fastify'
import type { BaseLogger } from 'pino'
import type WebSocket from 'ws'
import { logBudget } from '../util/log-budget.ts'

export interface FaultLogOptions {
  /** Warn lines per window at most. @default 5 */
  burst?: number
  /** @default 60_000 */
  windowMs?: number
  now?: () => number
}

const PEER_GONE = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT'])

/** Handles an error of an established socket; `client` is the request's address (or the request itself). */
export type WsFaultHandler = (error: Error, socket: WebSocket, client: Pick<FastifyRequest, 'ip'>) => void

/** An `errorHandler` for @fastify/websocket. */
export function wsErrorHandler (log: BaseLogger, opts: FaultLogOptions = {}): WsFaultHandler {
  const allow = logBudget(opts.burst ?? 5, opts.windowMs ?? 60_000, opts.now ?? Date.now)
  return (error, socket, client) => {
    const code = (error as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
      const suppressed = allow()
      if (suppressed !== false) log.warn({ code, reason: error.message, ip: client.ip, ...(suppressed > 0 ? { suppressed } : {}) }, 'client protocol violation; connection closed')
      return
    }
    if (typeof code === 'string' && PEER_GONE.has(code)) log.debug({ code }, 'websocket peer gone')
    else log.error({ err: error }, 'websocket error')
    socket.terminate()
  }
}
