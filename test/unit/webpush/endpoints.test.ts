/**
 * What a push subscription's endpoint may be (docs/push.md, "Endpoints refused"): every spelling of a
 * loopback, private, link-local, site-local or reserved address is refused when it is posted, IPv4 forms
 * the URL parser rewrites (127.1, hex, decimal), IPv6 forms that embed an IPv4 address (IPv4-compatible,
 * IPv4-mapped, NAT64, 6to4), names with a trailing dot, and text with control characters. The test setting
 * TOUCHLINE_PUSH_ALLOW_LOCAL lets the loopback through, and only the loopback.
 */
import { describe, expect, it } from 'vitest'
import { isPublicAddress, reachable } from '../../../src/webpush/address.ts'
import { checkEndpoint } from '../../../src/webpush/validate.ts'

/** [endpoint, why it is not a push service's, whether it is the loopback (let through with the test setting)]. */
const REFUSED: Array<[string, string, boolean]> = [
  ['https://localhost/p', 'the loopback, by name', true],
  ['https://localhost./p', 'the loopback, by name with a trailing dot', true],
  ['https://LocalHost/p', 'the loopback, by name in capitals', true],
  ['https://foo.localhost./p', 'a name under localhost', false],
  ['https://127.0.0.1/p', 'the IPv4 loopback', true],
  ['https://127.1/p', 'the IPv4 loopback, short form', true],
  ['https://0x7f000001/p', 'the IPv4 loopback, in hex', true],
  ['https://2130706433/p', 'the IPv4 loopback, as one number', true],
  ['https://0177.0.0.1/p', 'the IPv4 loopback, in octal', true],
  ['https://[::1]/p', 'the IPv6 loopback', true],
  ['https://[::127.0.0.1]/p', 'IPv4-compatible IPv6, the loopback', false],
  ['https://[::ffff:127.0.0.1]/p', 'IPv4-mapped IPv6, the loopback', true],
  ['https://[::ffff:10.0.0.1]/p', 'IPv4-mapped IPv6, a private address', false],
  ['https://[64:ff9b::7f00:1]/p', 'NAT64 of the loopback', false],
  ['https://[64:ff9b::a9fe:a9fe]/p', 'NAT64 of the metadata address', false],
  ['https://[64:ff9b:1::a00:1]/p', 'local-use NAT64', false],
  ['https://[2002:7f00:1::]/p', '6to4 of the loopback', false],
  ['https://[2002:a00:1::1]/p', '6to4 of a private address', false],
  ['https://[2001::1]/p', 'Teredo', false],
  ['https://[2001:db8::1]/p', 'IPv6 documentation', false],
  ['https://[fec0::1]/p', 'IPv6 site-local', false],
  ['https://[fe80::1]/p', 'IPv6 link-local', false],
  ['https://[fc00::1]/p', 'IPv6 unique-local', false],
  ['https://[fd12:3456::1]/p', 'IPv6 unique-local', false],
  ['https://[ff02::1]/p', 'IPv6 multicast', false],
  ['https://[::]/p', 'the IPv6 unspecified address', false],
  ['https://0.0.0.0/p', 'the IPv4 unspecified address', false],
  ['https://10.0.0.1/p', 'private 10/8', false],
  ['https://172.16.5.4/p', 'private 172.16/12', false],
  ['https://192.168.1.1/p', 'private 192.168/16', false],
  ['https://100.64.0.1/p', 'shared address space', false],
  ['https://169.254.169.254/p', 'link-local: the cloud metadata address', false],
  ['https://192.0.2.1/p', 'IPv4 documentation', false],
  ['https://224.0.0.1/p', 'IPv4 multicast', false],
  ['https://255.255.255.255/p', 'IPv4 broadcast', false],
  ['https://intranet/p', 'a single label', false],
  ['https://printer.local/p', 'mDNS', false],
  ['https://router.home.arpa/p', 'a home network name', false],
  ['https://push.internal./p', 'a private suffix, trailing dot', false],
  ['https://fcm.googleapis.com/p\r\nX-Injected: 1', 'a CRLF and a header after it', false],
  ['https://fcm.googleapis.com/p\nX-Injected: 1', 'a line feed', false],
  ['https://fcm.googleapis.com/p\tq', 'a tab', false],
  ['https://fcm.googleapis.com/p\u0000', 'a NUL', false],
  ['https://fcm.googleapis.com/p q', 'a space', false],
  ['http://fcm.googleapis.com/fcm/send/x', 'plain http', false],
  ['https://user:pw@fcm.googleapis.com/fcm/send/x', 'credentials', false]
]

describe('push endpoints refused when posted', () => {
  it.each(REFUSED)('%j (%s)', (endpoint) => {
    expect(checkEndpoint(endpoint, false)?.field).toBe('subscription.endpoint')
  })

  it.each(REFUSED)('%j (%s) with TOUCHLINE_PUSH_ALLOW_LOCAL: only the loopback passes', (endpoint, _why, loopback) => {
    // The test setting takes http too: a local push service needs no certificate.
    const local = endpoint.replace(/^https:/, 'http:')
    expect(checkEndpoint(local, true) === undefined, local).toBe(loopback)
  })

  it.each([
    'https://fcm.googleapis.com/fcm/send/x',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB',
    'https://web.push.apple.com/QGuQyavXutnMvqn3',
    'https://fcm.googleapis.com./fcm/send/x',
    'https://8.8.8.8/p',
    'https://[2a00:1450:4001:82b::200a]/p'
  ])('takes %j: a public push service', (endpoint) => {
    expect(checkEndpoint(endpoint, false)).toBeUndefined()
  })
})

describe('the address reached at connection time', () => {
  it('is public only outside every special-purpose range, whatever the form', () => {
    expect(['8.8.8.8', '142.250.0.1', '2a00:1450:4001::1', '2607:f8b0::1', '::ffff:8.8.8.8'].filter((a) => !isPublicAddress(a))).toEqual([])
    const notPublic = ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', 'fec0::1', 'fe80::1', 'fc00::1', '10.0.0.1', '169.254.169.254', '0.0.0.0', '::', '192.88.99.1']
    expect(notPublic.filter((a) => isPublicAddress(a))).toEqual([])
  })

  it('lets the loopback through only with the test setting', () => {
    expect([reachable('127.0.0.1', true), reachable('::ffff:127.0.0.1', true), reachable('::1', true), reachable('10.0.0.1', true), reachable('127.0.0.1', false)])
      .toEqual([true, true, true, false, false])
  })
})
