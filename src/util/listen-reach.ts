/**
 * Who can connect to a listener bound to a host (TOUCHLINE_HOST, `touchline provider --host`), in words, for
 * the start-up banners: a listener on 0.0.0.0 or :: answers every machine that can route to this one, while
 * the URLs the banners print name 127.0.0.1 and so hide it. The embedded provider takes its demo tokens from
 * anyone who reaches it, so the banners say where each part listens and warn when other machines can.
 */
import { isIPv6 } from 'node:net'

export interface ListenReach {
  /** Where it listens, e.g. `every IPv4 interface (0.0.0.0:8080)`, `loopback (127.0.0.1:8080)`. */
  where: string
  /** False only for a loopback address, which no other machine can reach. */
  otherMachines: boolean
}

/** `host:port`, an IPv6 address in brackets. */
function hostPort (host: string, port: number | string): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`
}

function isLoopback (host: string): boolean {
  const h = host.toLowerCase()
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(h)
}

/**
 * What a listener bound to `host` on `port` can be reached from. A name other than `localhost` counts as
 * reachable from other machines: it may resolve to any address.
 */
export function listenReach (host: string, port: number | string): ListenReach {
  const at = hostPort(host, port)
  if (host === '0.0.0.0') return { where: `every IPv4 interface (${at})`, otherMachines: true }
  // Node listens on :: for IPv6 and IPv4 alike (no ipv6Only): every interface.
  if (host === '::' || host === '::0') return { where: `every interface, IPv6 and IPv4 (${at})`, otherMachines: true }
  if (isLoopback(host)) return { where: `loopback (${at})`, otherMachines: false }
  return { where: `${at} only`, otherMachines: true }
}
