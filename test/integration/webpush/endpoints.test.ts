/**
 * `POST /v1/push/subscriptions` refuses, with 400 and the API's error body, every endpoint that is not a
 * public push service's (docs/push.md, "Endpoints refused"): each spelling of the loopback and of private,
 * link-local, site-local, NAT64, 6to4 and IPv4-mapped addresses, and text with a line break and a header
 * after it. They were stored with 201 before, to be refused only at send time. A public one is stored.
 * The gateway runs with the production setting (TOUCHLINE_PUSH_ALLOW_LOCAL off).
 */
import { describe, expect, it } from 'vitest'
import { browserKeys } from '../../helpers/push-service.ts'
import { ALL_KEY, follow, startPushGateway } from './harness.ts'

const REFUSED = [
  'https://localhost./p',
  'https://[::127.0.0.1]/p',
  'https://[64:ff9b::7f00:1]/p',
  'https://[2002:7f00:1::]/p',
  'https://[fec0::1]/p',
  'https://[::ffff:127.0.0.1]/p',
  'https://127.1/p',
  'https://0x7f000001/p',
  'https://2130706433/p',
  'https://[::1]/p',
  'https://10.0.0.1/p',
  'https://192.168.1.1/p',
  'https://169.254.169.254/p',
  'https://[fe80::1]/p',
  'https://[fc00::1]/p',
  'https://0.0.0.0/p',
  'https://fcm.googleapis.com/fcm/send/x\r\nX-Injected: 1'
]

describe('push subscription endpoints (TOUCHLINE_PUSH_ALLOW_LOCAL off)', () => {
  it('refuses every private spelling with 400 invalid_request naming subscription.endpoint; stores a public one', async () => {
    const gw = await startPushGateway({ TOUCHLINE_PUSH_ALLOW_LOCAL: 'false' })
    const answers = []
    for (const endpoint of REFUSED) {
      const r = await follow(gw, ALL_KEY.key, { endpoint, expirationTime: null, keys: browserKeys() }, { teams: [85] })
      answers.push({ endpoint, status: r.status, body: r.body })
    }
    expect(answers).toEqual(REFUSED.map((endpoint) => ({
      endpoint,
      status: 400,
      body: { error: 'Bad Request', code: 'invalid_request', message: expect.stringMatching(/^subscription\.endpoint: must (be on a public address|not contain spaces or control characters)$/) }
    })))
    expect(await gw.push?.manage.store.count()).toBe(0)

    const endpoint = 'https://fcm.googleapis.com/fcm/send/x'
    const stored = await follow(gw, ALL_KEY.key, { endpoint, expirationTime: null, keys: browserKeys() }, { teams: [85] })
    expect({ status: stored.status, endpoint: stored.body?.endpoint }).toEqual({ status: 201, endpoint })
    expect(await gw.push?.manage.store.count()).toBe(1)
  })
})
