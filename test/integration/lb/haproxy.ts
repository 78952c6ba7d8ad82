/**
 * A real HAProxy (Debian's `haproxy`) in front of gateways on this machine, run from the repository's own
 * deploy/haproxy.cfg with the bind port and the servers replaced (and the Compose DNS left out), plus a
 * stats socket to read what its health checks concluded.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const HAPROXY_CFG = fileURLToPath(new URL('../../../deploy/haproxy.cfg', import.meta.url))

/** The haproxy binary, or undefined when it is not installed (.ci/run installs Debian's package). */
export function findHaproxy (): string | undefined {
  for (const path of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) if (existsSync(path)) return path
  const which = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' })
  return which.status === 0 && which.stdout.trim() !== '' ? which.stdout.trim() : undefined
}

/**
 * deploy/haproxy.cfg for this machine: listening on `bind`, the servers `gateway-N` at 127.0.0.1:<ports[N-1]>,
 * no Compose resolvers, and a stats socket at `socket`. Everything else (timeouts, checks, forwardfor) as in
 * the file.
 */
export function localConfig (bind: number, ports: number[], socket: string): string {
  let text = readFileSync(HAPROXY_CFG, 'utf8')
  const servers = [...text.matchAll(/^\s*server (gateway-\d+) \S+.*$/gm)]
  if (servers.length !== ports.length) throw new Error(`deploy/haproxy.cfg has ${servers.length} servers, the test runs ${ports.length} gateways`)
  servers.forEach((m, i) => { text = text.replace(m[0], `    server ${m[1] as string} 127.0.0.1:${ports[i] as number}`) })
  text = text
    .replace(/^(\s*bind) :\d+$/m, `$1 127.0.0.1:${bind}`)
    .replace(/ resolvers docker init-addr \S+/, '')
    .replace(/^resolvers docker\n(?:\s+.*\n?)*/m, '')
    .replace(/^(global\n)/m, `$1    stats socket ${socket} mode 600 level admin\n`)
  return text
}

export interface RunningHaproxy {
  child: ChildProcess
  /** `show stat`: each server of backend `gateways` and its status (`UP`, `DOWN`, `UP 1/2`...). */
  servers: () => Promise<Record<string, string>>
  output: () => string
  stop: () => Promise<void>
}

async function ask (socket: string, command: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const conn = connect(socket)
    let out = ''
    conn.setEncoding('utf8')
    conn.on('data', (d: string) => { out += d })
    conn.on('end', () => resolve(out))
    conn.on('error', reject)
    conn.write(`${command}\n`)
  })
}

export async function startHaproxy (binary: string, bind: number, ports: number[]): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tl-haproxy-'))
  const socket = join(dir, 'stats.sock')
  const cfg = join(dir, 'haproxy.cfg')
  writeFileSync(cfg, localConfig(bind, ports, socket))
  const check = spawnSync(binary, ['-c', '-f', cfg], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(`haproxy -c refused the config:\n${check.stdout}${check.stderr}`)
  // -db: in the foreground, logs on stdout (kept to the last 64 KiB for a failure's message).
  const child = spawn(binary, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  const keep = (d: Buffer): void => { out = (out + d.toString()).slice(-65_536) }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const servers = async (): Promise<Record<string, string>> => {
    const csv = (await ask(socket, 'show stat')).trim().split('\n')
    const header = (csv[0] ?? '').replace(/^# /, '').split(',')
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((h) => header.indexOf(h)) as [number, number, number]
    const out: Record<string, string> = {}
    for (const row of csv.slice(1).map((l) => l.split(','))) {
      if (row[px] === 'gateways' && row[sv] !== 'BACKEND') out[row[sv] as string] = row[st] as string
    }
    return out
  }
  return {
    child,
    servers,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    }
  }
}
