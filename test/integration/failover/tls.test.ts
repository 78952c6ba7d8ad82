/**
 * `rediss://user:password@host` (docs/settings.md, "Redis URL"): a private redis-server listening on TLS
 * only, with a certificate signed by a certificate authority made for the test (openssl), and an ACL user
 * with a password. The gateway trusts that authority through TOUCHLINE_REDIS_CA; without it, or with a wrong
 * password, the start stops naming TOUCHLINE_REDIS_URL. The password never appears in a log line, an error
 * or /v1/status.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { connect } from 'node:tls'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { freePort } from '../../helpers/redis-server.ts'
import { waitFor } from '../../helpers/wait.ts'

const PASSWORD = 'tls-test-s3cret-value'
let dir: string
let port: number
let server: ChildProcess | undefined

function openssl (...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tl-redis-tls-'))
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=touchline test CA')
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1')
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n')
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext')
  port = await freePort()
  server = spawn('redis-server', [
    '--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--tls-cert-file', join(dir, 'server.pem'), '--tls-key-file', join(dir, 'server.key'), '--tls-ca-cert-file', join(dir, 'ca.pem'),
    '--tls-auth-clients', 'no', '--user', 'default', 'off', '--user', 'app', 'on', `>${PASSWORD}`, '~*', '&*', '+@all'
  ], { stdio: 'ignore' })
  const ca = readFileSync(join(dir, 'ca.pem'))
  await waitFor('redis-server answering on TLS', async () => await new Promise<boolean>((resolve) => {
    const s = connect({ port, host: '127.0.0.1', ca }, () => { s.destroy(); resolve(true) })
    s.on('error', () => resolve(false))
  }), 10_000, 100)
})

afterAll(async () => {
  if (server !== undefined && server.exitCode === null) {
    const exited = once(server, 'exit')
    server.kill('SIGKILL')
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
})

/** A gateway that polls nothing, its log lines kept. */
async function start (env: Record<string, string>): Promise<{ lines: string[], gateway?: Gateway, error?: Error & { variables?: string[] } }> {
  const lines: string[] = []
  const log = pino({ level: 'debug' }, new Writable({ write (chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done() } }))
  try {
    return { lines, gateway: await startTestGateway({ env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3', ...env }, log, overrides: { poll: false } }) }
  } catch (err) {
    return { lines, error: err as Error }
  }
}

describe('rediss:// with a user and a password', () => {
  it('connects through TLS with the CA of TOUCHLINE_REDIS_CA; the password is in no log line and not on /v1/status', async () => {
    const { lines, gateway, error } = await start({ TOUCHLINE_REDIS_URL: `rediss://app:${PASSWORD}@127.0.0.1:${port}`, TOUCHLINE_REDIS_CA: join(dir, 'ca.pem') })
    expect(error).toBeUndefined()
    try {
      const head = await gateway!.store.head()
      expect(head).toMatch(/^[0-9a-f]+:0$/)
      const status = await (await fetch(`${gateway!.url}/v1/status?api_token=demo`)).text()
      expect(status).toContain('"store"')
      expect(status).not.toContain(PASSWORD)
    } finally {
      await gateway?.close()
    }
    expect(lines.join('')).not.toContain(PASSWORD)
  })

  it('without the CA the certificate is refused: the start stops naming TOUCHLINE_REDIS_URL, the password masked', async () => {
    const { lines, error } = await start({ TOUCHLINE_REDIS_URL: `rediss://app:${PASSWORD}@127.0.0.1:${port}` })
    expect(error?.variables).toEqual(['TOUCHLINE_REDIS_URL'])
    expect(error?.message).toMatch(/self[- ]signed|unable to verify|certificate/i)
    expect(error?.message).toContain('app:***@')
    expect(error?.message + lines.join('')).not.toContain(PASSWORD)
  })

  it('a wrong password stops the start naming TOUCHLINE_REDIS_URL, and shows neither password', async () => {
    const { lines, error } = await start({ TOUCHLINE_REDIS_URL: `rediss://app:not-the-${PASSWORD}@127.0.0.1:${port}`, TOUCHLINE_REDIS_CA: join(dir, 'ca.pem') })
    expect(error?.variables).toEqual(['TOUCHLINE_REDIS_URL'])
    expect(error?.message + lines.join('')).not.toContain(PASSWORD)
  })

  it('an unreadable TOUCHLINE_REDIS_CA stops the start naming it', async () => {
    const { error } = await start({ TOUCHLINE_REDIS_URL: `rediss://app:${PASSWORD}@127.0.0.1:${port}`, TOUCHLINE_REDIS_CA: join(dir, 'missing.pem') })
    expect(error?.variables).toEqual(['TOUCHLINE_REDIS_CA'])
  })
})
