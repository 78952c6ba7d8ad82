/**
 * Signed connection tokens over an open WebSocket (docs/tokens.md, "The auth frame"):
 *
 * - **First frame.** A browser cannot set a header on a WebSocket, and a token in the address ends up in
 *   access logs and history. So `/v1/live?auth=frame` opened with no credential is upgraded and waits for
 *   an `auth` frame: the token is verified, the fan's origin and connection count checked, `authorized` sent,
 *   and the connection is adopted as if it had come with the token (`hello` follows). Frames sent behind
 *   the `auth` (a client that pipelines its subscribe) wait for it, a few at most. Anything else first, a
 *   refused token, or no `auth` within `authTimeoutMs`: an `error` frame `unauthorized` and close 4403
 *   (4401 for an expired token: a new one helps).
 * - **Refresh.** On a connection opened with a token, `auth` with a new token of the same key and fan
 *   moves its expiry; a changed narrowing applies at once, as a keys reload would (rescope.ts). A refused
 *   refresh is answered and leaves the connection as it was, until its token runs out.
 */
import type WebSocket from 'ws'
import { originAllowed } from '../client-keys.ts'
import { TokenError, type TokenGrant } from '../tokens.ts'
import type { AuthorizedFrame } from '../wire-model/model.ts'
import type { Connection, Fan } from './connection.ts'
import { CLOSE_TOKEN_EXPIRED, CLOSE_TOKEN_REFUSED, errorFrame, parseClientFrame, type ErrorFrame, type Ref } from '../protocol/control.ts'

/** Verifies a token and gives the fan's grant; throws TokenError. */
export type Authenticate = (token: string) => Promise<TokenGrant>

/** Frames a client may send behind its first `auth` before the answer; more are refused. */
const MAX_HELD = 16

export const authorizedFrame = (ref: Ref | undefined, fan: Fan): AuthorizedFrame =>
  ({ type: 'authorized', ref, fan: fan.name, expires_at: new Date(fan.expiresAt).toISOString() })

/** The `unauthorized` error of a refused token: its reason first, never the token. */
export const refusedFrame = (ref: Ref | undefined, err: unknown): ErrorFrame => err instanceof TokenError
  ? errorFrame(ref, 'unauthorized', `${err.reason}: ${err.message}`)
  : errorFrame(ref, 'unauthorized', 'invalid: the token could not be verified')

export interface PendingAuth {
  authenticate: Authenticate | undefined
  timeoutMs: number
  maxFrameBytes: number
  /** Adopts the socket as the fan's connection (it says hello); undefined when it was refused (closed). */
  adopt: (grant: TokenGrant) => Connection | undefined
  /** Passes a frame held behind the `auth` to the adopted connection. */
  receive: (conn: Connection, data: Buffer, isBinary: boolean) => void
  /** A socket waiting for its `auth`, until it is adopted or closed: the hub closes these at shutdown. */
  waiting: Set<WebSocket>
}

/**
 * Waits for the first frame of a socket opened without a credential: an `auth` whose token admits the
 * connection. Every listener is attached before this returns.
 */
export function awaitFirstAuth (socket: WebSocket, origin: string | undefined, p: PendingAuth): void {
  p.waiting.add(socket)
  const held: Array<{ data: Buffer, isBinary: boolean }> = []
  let verifying = false
  const refuse = (frame: ErrorFrame, code: number = CLOSE_TOKEN_REFUSED): void => {
    stop()
    socket.send(JSON.stringify(frame))
    socket.close(code, frame.message.slice(0, 120))
  }
  const timer = setTimeout(() => refuse(errorFrame(undefined, 'unauthorized', `no auth frame within ${p.timeoutMs / 1000} s`)), p.timeoutMs)
  timer.unref()
  const stop = (): void => {
    clearTimeout(timer)
    p.waiting.delete(socket)
    socket.off('message', onMessage)
  }
  const onMessage = (data: WebSocket.RawData, isBinary: boolean): void => {
    if (verifying) {
      if (held.length >= MAX_HELD) return refuse(errorFrame(undefined, 'limit_exceeded', `more than ${MAX_HELD} frames sent before the auth was answered`))
      held.push({ data: data as Buffer, isBinary })
      return
    }
    const parsed = parseClientFrame(data as Buffer, isBinary, p.maxFrameBytes)
    if (!parsed.ok) return refuse({ ...parsed.error, code: 'unauthorized', message: `the first frame must be auth: ${parsed.error.message}` })
    const frame = parsed.frame
    if (frame.op !== 'auth') return refuse(errorFrame(frame.ref, 'unauthorized', 'a connection opened with auth=frame sends {"op":"auth","token":...} first'))
    if (p.authenticate === undefined) return refuse(errorFrame(frame.ref, 'unauthorized', 'this gateway takes no tokens'))
    verifying = true
    p.authenticate(frame.token).then((grant) => {
      if (socket.readyState !== socket.OPEN) return stop()
      if (!originAllowed(grant.key, origin)) return refuse(errorFrame(frame.ref, 'forbidden', 'this origin may not use this key'))
      stop()
      socket.send(JSON.stringify(authorizedFrame(frame.ref, { name: grant.fan, expiresAt: grant.expiresAt })))
      const conn = p.adopt(grant)
      if (conn !== undefined) for (const h of held) p.receive(conn, h.data, h.isBinary)
    }, (err: unknown) => {
      if (socket.readyState !== socket.OPEN) return stop()
      refuse(refusedFrame(frame.ref, err), err instanceof TokenError && err.reason === 'expired' ? CLOSE_TOKEN_EXPIRED : CLOSE_TOKEN_REFUSED)
    })
  }
  socket.on('message', onMessage)
  socket.once('close', stop)
}

/** What a refresh on an open connection needs from the hub. */
export interface Refresh {
  authenticate: Authenticate | undefined
  send: (conn: Connection, frame: AuthorizedFrame | ErrorFrame) => void
  /** Applies the refreshed token's key record to the connection (its narrowing may have changed). */
  rekey: (conn: Connection, grant: TokenGrant) => Promise<void>
}

/** `auth` on an open connection: a new token of the same key and fan moves its expiry. Never rejects. */
export async function refreshToken (conn: Connection, ref: Ref | undefined, token: string, r: Refresh): Promise<void> {
  if (conn.fan === undefined || r.authenticate === undefined) {
    return r.send(conn, errorFrame(ref, 'forbidden', 'this connection was opened with a client key: it takes no token'))
  }
  let grant: TokenGrant
  try {
    grant = await r.authenticate(token)
  } catch (err) {
    return r.send(conn, refusedFrame(ref, err))
  }
  if (conn.closed) return
  if (grant.key.name !== conn.key.name || grant.fan !== conn.fan.name) {
    return r.send(conn, errorFrame(ref, 'forbidden', 'a new token must name the same key (iss) and fan (sub) as the connection\'s'))
  }
  conn.fan = { name: grant.fan, expiresAt: grant.expiresAt }
  await r.rekey(conn, grant)
  if (!conn.closed) r.send(conn, authorizedFrame(ref, conn.fan))
}
