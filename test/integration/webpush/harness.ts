/**
 * Web Push tests over real parts: gateways in process (`startGateway`) with VAPID keys and a keys file of
 * their own, the test push service (test/helpers/push-service.ts), and plain HTTP calls to `/v1/push/*`.
 */
import { request } from 'undici'
import type { Gateway, GatewayOverrides } from '../../../src/gateway.ts'
import { newVapidKeys } from '../../../src/webpush/vapid.ts'
import { LOCAL, startTestGateway, writeKeysFile } from '../../helpers/gateway.ts'

/** One VAPID pair for every gateway of a test run (a new pair per gateway works as well). */
export const VAPID = newVapidKeys()

export const ALL_KEY = { key: 'push-all-key', name: 'fans' }
/** A key limited to league 501. */
export const SCOPED_KEY = { key: 'push-scoped-key', name: 'scoped', leagues: [501] }

/** A keys file of the test's keys (test/helpers/gateway.ts). */
export const writeKeys = writeKeysFile

export function pushEnv (extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...LOCAL,
    TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3',
    TOUCHLINE_KEYS_FILE: writeKeys([ALL_KEY, SCOPED_KEY]),
    TOUCHLINE_VAPID_PUBLIC_KEY: VAPID.publicKey,
    TOUCHLINE_VAPID_PRIVATE_KEY: VAPID.privateKey,
    TOUCHLINE_VAPID_SUBJECT: 'mailto:ops@touchline.example',
    TOUCHLINE_PUSH_ALLOW_LOCAL: 'true',
    ...extra
  }
}

/** A gateway without polling by default (the test drives the store), closed when the test ends. */
export async function startPushGateway (env: Record<string, string> = {}, overrides: GatewayOverrides = {}): Promise<Gateway> {
  return await startTestGateway({ env: pushEnv(env), overrides: { poll: false, ...overrides }, closeWhenTestEnds: true })
}

export interface Reply { status: number, body: any, headers: Record<string, unknown> }

export async function call (gateway: { url: string }, method: 'GET' | 'POST' | 'DELETE', path: string, opts: { key?: string, body?: unknown, query?: Record<string, string> } = {}): Promise<Reply> {
  const qs = new URLSearchParams(opts.query ?? {}).toString()
  const res = await request(`${gateway.url}${path}${qs === '' ? '' : `?${qs}`}`, {
    method,
    headers: {
      ...(opts.key !== undefined ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {})
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {})
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text === '' ? undefined : JSON.parse(text), headers: res.headers }
}

export async function follow (gateway: { url: string }, key: string, subscription: unknown, followed: Record<string, number[]>, more: Record<string, unknown> = {}): Promise<Reply> {
  return await call(gateway, 'POST', '/v1/push/subscriptions', { key, body: { subscription, follow: followed, ...more } })
}
