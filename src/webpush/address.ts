/**
 * Where a push request may go (docs/push.md): a push service is on the public internet, so an endpoint that
 * names or reaches a private, loopback, link-local or otherwise reserved address is refused, unless the test
 * setting TOUCHLINE_PUSH_ALLOW_LOCAL lets a local push service through (loopback only). The endpoint is
 * checked when it is posted (its URL) and again at every connection (the address actually reached), so a
 * name that resolves to a private address, or changes to one later, is refused too.
 *
 * IPv4: every address outside the special-purpose ranges (IANA's registry) is public. IPv6: only global
 * unicast (2000::/3) can be, less its special-purpose blocks; everything else is not, whatever its form:
 * the loopback and unspecified addresses, IPv4-compatible (`::127.0.0.1`) and IPv4-mapped ones written in
 * hex (`::ffff:7f00:1`), NAT64 (`64:ff9b::/96`, which reaches the IPv4 address it embeds), site-local
 * (`fec0::/10`), unique-local, link-local, multicast. Within 2000::/3, 6to4 (`2002::/16`) embeds an IPv4
 * address too, and Teredo (`2001::/32`) sits in the IETF's own block: both are refused.
 */
import { BlockList, isIP } from 'node:net'

const reservedV4 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]
] as const) reservedV4.addSubnet(net, prefix, 'ipv4')

/** The only IPv6 addresses that can be public: global unicast. */
const globalV6 = new BlockList()
globalV6.addSubnet('2000::', 3, 'ipv6')

/** Special-purpose blocks inside global unicast. */
const reservedV6 = new BlockList()
for (const [net, prefix] of [
  // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID...
  ['2001::', 23],
  // Documentation (RFC 3849, RFC 9637).
  ['2001:db8::', 32], ['3fff::', 20],
  // 6to4: the next 32 bits are an IPv4 address, private ones included.
  ['2002::', 16]
] as const) reservedV6.addSubnet(net, prefix, 'ipv6')

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** An address without brackets, an IPv4-mapped IPv6 one in dotted form (a socket's remote address) as its IPv4. */
function plain (address: string): string {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip)
  return mapped?.[1] ?? ip
}

export function isLoopbackAddress (address: string): boolean {
  const ip = plain(address)
  const family = isIP(ip)
  return family !== 0 && loopback.check(ip, family === 4 ? 'ipv4' : 'ipv6')
}

/** Whether an IP address is on the public internet (not private, loopback, link-local, documentation...). */
export function isPublicAddress (address: string): boolean {
  const ip = plain(address)
  const family = isIP(ip)
  if (family === 4) return !reservedV4.check(ip, 'ipv4')
  // An IPv4-mapped address in hex (::ffff:7f00:1) is outside 2000::/3, as is every other form above.
  return family === 6 && globalV6.check(ip, 'ipv6') && !reservedV6.check(ip, 'ipv6')
}

/** Whether a connection to `address` may carry a push request. */
export function reachable (address: string, allowLocal: boolean): boolean {
  return isPublicAddress(address) || (allowLocal && isLoopbackAddress(address))
}
