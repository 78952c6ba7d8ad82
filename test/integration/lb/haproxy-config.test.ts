/**
 * deploy/haproxy.cfg as HAProxy itself reads it (`haproxy -c`): the file compose.yaml mounts, and the
 * same file as the rolling-restart test runs it on this machine.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findHaproxy, HAPROXY_CFG, localConfig } from './haproxy.ts'

const HAPROXY = findHaproxy()

describe.skipIf(HAPROXY === undefined)('deploy/haproxy.cfg (Debian package haproxy; skipped: not installed)', () => {
  it('is valid for HAProxy as compose.yaml mounts it', () => {
    const check = spawnSync(HAPROXY as string, ['-c', '-f', HAPROXY_CFG], { encoding: 'utf8' })
    expect(check.status, check.stdout + check.stderr).toBe(0)
    expect(check.stdout + check.stderr).toContain('Configuration file is valid')
    // Outside Compose the gateways' names do not resolve: the only warnings allowed are those.
    const warnings = (check.stdout + check.stderr).split('\n').filter((l) => l.includes('[WARNING]'))
    expect(warnings.filter((l) => !/could not resolve address 'gateway-\d'/.test(l))).toEqual([])
  })

  it('is valid, without a warning, with this machine\'s addresses in place of the Compose names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tl-haproxy-check-'))
    const cfg = join(dir, 'haproxy.cfg')
    writeFileSync(cfg, localConfig(18080, [18081, 18082, 18083], join(dir, 'stats.sock')))
    const check = spawnSync(HAPROXY as string, ['-c', '-f', cfg], { encoding: 'utf8' })
    expect(check.status, check.stdout + check.stderr).toBe(0)
    expect(check.stdout + check.stderr).not.toContain('[WARNING]')
  })
})
