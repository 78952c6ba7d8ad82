/**
 * The start-up banner of `touchline serve` (README, "Quick start") says on which interfaces the gateway and
 * the embedded provider listen, and warns when other machines can use the demo credentials: the URLs it
 * prints name 127.0.0.1 even when both listen on every interface.
 */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.ts'
import { banner } from '../../../src/server.ts'
import { listenReach } from '../../../src/util/listen-reach.ts'

const GATEWAY = 'http://127.0.0.1:8080'
const PROVIDER = 'http://127.0.0.1:8081/v3'
const REAL_UPSTREAM = { TOUCHLINE_UPSTREAM_URL: 'https://api.sportmonks.com/v3', TOUCHLINE_UPSTREAM_TOKEN: 'upstream-token' }
const line = (text: string, label: string): string | undefined => text.split('\n').find((l) => l.trimStart().startsWith(label))
const lines = (text: string, label: string): string[] => text.split('\n').filter((l) => l.trimStart().startsWith(label))

describe('the serve banner', () => {
  it('on 0.0.0.0: both listen on every interface, and the demo tokens and the demo key are named in a warning', () => {
    const text = banner(loadConfig({ TOUCHLINE_HOST: '0.0.0.0' }), GATEWAY, PROVIDER)
    expect(line(text, 'touchline gateway')).toMatch(/touchline gateway\s+http:\/\/127\.0\.0\.1:8080$/)
    expect(lines(text, 'listens on')).toEqual([
      '    listens on               every IPv4 interface (0.0.0.0:8080): other machines can connect',
      '    listens on               every IPv4 interface (0.0.0.0:8081): other machines can connect'
    ])
    // The provider's line follows the provider's URL, the gateway's the gateway's.
    const all = text.split('\n')
    expect(all[all.findIndex((l) => l.includes('embedded provider')) + 1]).toContain('0.0.0.0:8081')
    expect(all[all.findIndex((l) => l.includes('touchline gateway')) + 1]).toContain('0.0.0.0:8080')
    expect(text).toContain('  WARNING: other machines can use\n' +
      '    - the embedded provider and its demo tokens (demo-free ... demo-enterprise), on every IPv4 interface (0.0.0.0:8081)\n' +
      '    - the demo client key "demo", on every IPv4 interface (0.0.0.0:8080)\n' +
      '  TOUCHLINE_HOST=127.0.0.1 keeps them on this machine.')
  })

  it('on 127.0.0.1: both on the loopback, this machine only, and no warning', () => {
    const text = banner(loadConfig({ TOUCHLINE_HOST: '127.0.0.1' }), GATEWAY, PROVIDER)
    expect(lines(text, 'listens on')).toEqual([
      '    listens on               loopback (127.0.0.1:8080): this machine only',
      '    listens on               loopback (127.0.0.1:8081): this machine only'
    ])
    expect(text).not.toContain('WARNING')
    expect(text).not.toContain('other machines')
  })

  it('on :: in front of a real upstream with a keys file: every interface, and nothing demo to warn of', () => {
    const text = banner(loadConfig({ TOUCHLINE_HOST: '::', TOUCHLINE_KEYS_FILE: '/etc/touchline/keys.json', ...REAL_UPSTREAM }), GATEWAY, undefined)
    expect(lines(text, 'listens on')).toEqual(['    listens on               every interface, IPv6 and IPv4 ([::]:8080): other machines can connect'])
    expect(text).not.toContain('embedded provider')
    expect(text).not.toContain('WARNING')
  })

  it('the demo key alone, without the provider: the warning names the key only', () => {
    const text = banner(loadConfig({ TOUCHLINE_HOST: '0.0.0.0', ...REAL_UPSTREAM }), GATEWAY, undefined)
    expect(text).toContain('    - the demo client key "demo", on every IPv4 interface (0.0.0.0:8080)\n  TOUCHLINE_HOST=127.0.0.1 keeps it on this machine.')
    expect(text).not.toContain('demo tokens')
  })
})

describe('listenReach', () => {
  it('tells loopback addresses from those other machines reach', () => {
    expect(listenReach('localhost', 8080)).toEqual({ where: 'loopback (localhost:8080)', otherMachines: false })
    expect(listenReach('::1', 8080)).toEqual({ where: 'loopback ([::1]:8080)', otherMachines: false })
    expect(listenReach('127.0.0.2', 8080).otherMachines).toBe(false)
    expect(listenReach('192.168.1.5', 8080)).toEqual({ where: '192.168.1.5:8080 only', otherMachines: true })
    expect(listenReach('gateway.internal', 8080).otherMachines).toBe(true)
  })
})
