/**
 * compose.yaml and deploy/haproxy.cfg (docs/operations.md, "Behind a load balancer"), read as Docker Compose and
 * HAProxy would: three gateways behind HAProxy, a Redis primary with a replica and three Sentinels, and the
 * settings that make a rolling restart lose nobody agreeing between the two files.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadConfig } from '../../../src/config.ts'

const root = new URL('../../../', import.meta.url)
const compose = parse(readFileSync(new URL('compose.yaml', root), 'utf8'), { merge: true }) as {
  services: Record<string, Service>
  networks: Record<string, { ipam?: { config?: Array<{ subnet: string }> } }>
}
const haproxy = readFileSync(new URL('deploy/haproxy.cfg', root), 'utf8')
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8')

interface Service {
  image?: string
  build?: string
  command?: string[]
  environment?: Record<string, string>
  networks?: string[] | Record<string, { ipv4_address?: string }>
  volumes?: string[]
  ports?: string[]
  depends_on?: Record<string, { condition: string }>
  stop_grace_period?: string
  init?: boolean
  healthcheck?: { test?: string[] }
}

const GATEWAYS = ['gateway-1', 'gateway-2', 'gateway-3']
const SENTINELS = ['sentinel-1', 'sentinel-2', 'sentinel-3']
const service = (name: string): Service => compose.services[name] as Service
const env = (name: string): Record<string, string> => service(name).environment ?? {}
/** The lines of the HAProxy section `header` (e.g. `backend gateways`), trimmed, comments left out. */
function section (header: string): string[] {
  const lines = haproxy.split('\n')
  const start = lines.findIndex((l) => l.trim() === header)
  expect(start, header).toBeGreaterThanOrEqual(0)
  const end = lines.findIndex((l, i) => i > start && /^\S/.test(l))
  return lines.slice(start + 1, end < 0 ? undefined : end).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'))
}
/** An HAProxy or Compose duration (`20s`, `1h`, `500ms`) in seconds; NaN for anything else. */
function seconds (s: string): number {
  const [, n, unit] = /^(\d+)(ms|s|m|h)$/.exec(s) ?? []
  return Number(n) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[unit as 'ms' | 's' | 'm' | 'h'] ?? NaN)
}
/** The duration of the HAProxy `timeout <name>` line among `lines`, in seconds. */
const timeout = (lines: string[], name: string): number => seconds(lines.find((l) => l.startsWith(`timeout ${name} `))?.split(/\s+/)[2] ?? '')

describe('compose.yaml', () => {
  it('runs three gateways, a Redis primary with a replica, three Sentinels, the provider and HAProxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...GATEWAYS, 'haproxy', 'provider', 'redis-primary', 'redis-replica', ...SENTINELS].sort())
    expect(service('redis-replica').command?.join(' ')).toContain('--replicaof redis-primary 6379')
    for (const s of SENTINELS) {
      const script = service(s).command?.join(' ') ?? ''
      expect(script, s).toContain('redis-sentinel')
      expect(script, s).toMatch(/sentinel monitor touchline redis-primary 6379 2\b/)
    }
  })

  it('gives every gateway the same valid settings: Redis through the three Sentinels, the provider apart, HAProxy alone trusted', () => {
    const first = env('gateway-1')
    for (const g of GATEWAYS) {
      expect(env(g), g).toEqual(first)
      expect(service(g).init, g).toBe(true)
    }
    expect(first.TOUCHLINE_REDIS_URL).toBe(`redis+sentinel://${SENTINELS.map((s) => `${s}:26379`).join(',')}/touchline`)
    expect(first.TOUCHLINE_UPSTREAM_URL).toBe('http://provider:8081/v3')
    // Every other variable is one the gateway takes (the Sentinel URL form is parsed by the Sentinel support).
    const { TOUCHLINE_REDIS_URL: _sentinel, ...rest } = first
    const cfg = loadConfig(rest)
    const address = (service('haproxy').networks as Record<string, { ipv4_address?: string }>).touchline?.ipv4_address
    expect(address).toBeDefined()
    expect(cfg.TOUCHLINE_TRUST_PROXY, 'X-Forwarded-For believed from HAProxy alone').toEqual([address])
    const subnet = compose.networks.touchline?.ipam?.config?.[0]?.subnet ?? ''
    expect(address?.startsWith(subnet.replace(/0\/24$/, ''))).toBe(true)
  })

  it('drains each gateway longer than HAProxy takes to see its failed /readyz, and stops it before Docker would kill it', () => {
    const cfg = loadConfig({ ...env('gateway-1'), TOUCHLINE_REDIS_URL: '' })
    const backend = section('backend gateways')
    expect(backend).toContain('option httpchk')
    expect(backend).toContain('http-check send meth GET uri /readyz')
    const defaults = backend.find((l) => l.startsWith('default-server')) ?? ''
    const inter = Number(/\binter (\d+)s\b/.exec(defaults)?.[1]) * 1000
    const fall = Number(/\bfall (\d+)\b/.exec(defaults)?.[1])
    expect(defaults).toMatch(/\bcheck\b/)
    // The last good check may have run just before the signal: `fall` more, one interval apart, after it.
    expect(cfg.TOUCHLINE_DRAIN_DELAY_MS).toBeGreaterThanOrEqual(inter * (fall + 1))
    for (const g of GATEWAYS) {
      expect(seconds(service(g).stop_grace_period ?? '') * 1000, g).toBeGreaterThan(cfg.TOUCHLINE_DRAIN_DELAY_MS + cfg.TOUCHLINE_SHUTDOWN_TIMEOUT_MS)
    }
  })

  it('checks the provider\'s health on the port it listens on, not the gateway\'s port the image\'s HEALTHCHECK asks', () => {
    const provider = service('provider')
    const command = provider.command ?? []
    const port = command[command.indexOf('--port') + 1]
    expect(port).toBe('8081')
    expect(provider.ports).toEqual([`${port}:${port}`])
    // The image's own check asks TOUCHLINE_PORT (8080 by default), where nothing listens in this container.
    expect(dockerfile).toMatch(/^HEALTHCHECK .*process\.env\.TOUCHLINE_PORT\|\|8080/m)
    const test = provider.healthcheck?.test ?? []
    expect(test[0]).toBe('CMD')
    expect(test.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`)
    expect(test.join(' ')).not.toContain(':8080')
  })

  it('mounts deploy/haproxy.cfg in HAProxy, whose servers are the three gateways on their port', () => {
    expect(service('haproxy').volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro')
    expect(Object.keys(service('haproxy').depends_on ?? {}).sort()).toEqual(GATEWAYS)
    const servers = section('backend gateways').filter((l) => l.startsWith('server '))
    expect(servers).toEqual(GATEWAYS.map((g) => `server ${g} ${g}:${env(g).TOUCHLINE_PORT}`))
    const bind = section('frontend touchline').find((l) => l.startsWith('bind '))
    expect(service('haproxy').ports).toEqual([`${bind?.replace('bind :', '')}:${bind?.replace('bind :', '')}`])
  })
})

describe('deploy/haproxy.cfg', () => {
  it('is set up for WebSocket and SSE: long tunnels, no request buffering, X-Forwarded-For from the balancer alone', () => {
    const defaults = section('defaults')
    expect(timeout(defaults, 'tunnel')).toBeGreaterThanOrEqual(3600)
    // Idle HTTP exchanges (an SSE stream between two comments) outlast the gateway's 15 s SSE comment and 25 s ping.
    for (const side of ['client', 'server']) expect(timeout(defaults, side), side).toBeGreaterThan(25)
    const frontend = section('frontend touchline')
    expect(frontend).toContain('no option http-buffer-request')
    expect(frontend).toContain('option forwardfor')
    expect(frontend.indexOf('http-request del-header X-Forwarded-For')).toBeLessThan(frontend.indexOf('option forwardfor'))
    expect(haproxy).not.toMatch(/^\s*(compression|filter compression)/m)
    expect(defaults).toContain('retry-on conn-failure empty-response 503')
  })
})
