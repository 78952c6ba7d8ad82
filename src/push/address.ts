/**
 * Where a push request may go (docs/push.md): a push service is on the public internet, so an endpoint that
 * names or reaches a private, loopback, link-local or otherwise reserved address is refused, unless the test
 * setting TOUCHLINE_PUSH_ALLOW_LOCAL lets a local push service through (loopback only). The endpoint is
 * checked when it is posted (its URL) and again at every connection (the address actually reached), so a
 * name that resolves to a private address, or changes to one later, is refused too.
 */
import { BlockList, isIP } from 'node:net'

const reserved = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]
] as const) reserved.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  // IPv4-mapped addresses (::ffff:0:0/96) are not listed: BlockList would then match every IPv4 address;
  // isPublicAddress refuses them itself.
  ['::', 127], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]
] as const) reserved.addSubnet(net, prefix, 'ipv6')

const loopback = new BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')

/** An address without brackets, an IPv4-mapped IPv6 one as its IPv4. */
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
  if (family === 0) return false
  if (family === 6 && ip.startsWith('::ffff:')) return false
  return !reserved.check(ip, family === 4 ? 'ipv4' : 'ipv6')
}

/** Whether a connection to `address` may carry a push request. */
export function reachable (address: string, allowLocal: boolean): boolean {
  return isPublicAddress(address) || (allowLocal && isLoopbackAddress(address))
}
