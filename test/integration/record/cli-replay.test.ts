/** `touchline provider --replay`: the real command, with several files after one flag, a wildcard, and a bad file. */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const RECORDED = fileURLToPath(new URL('../../fixtures/upstream/recorded/', import.meta.url))
const FILES = ['fixture-19135043-manutd-villa.json', 'fixture-19683241-psg-arsenal-penalties.json'].map((f) => `${RECORDED}${f}`)
const children: ChildProcess[] = []
afterEach(() => { for (const c of children.splice(0)) c.kill('SIGTERM') })

function run (args: string[]) {
  const child = spawn(process.execPath, [BIN, 'provider', '--port', '0', ...args], { env: { ...process.env, NODE_ENV: 'test' }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const baseUrl = async (): Promise<string> => {
    const deadline = Date.now() + 20_000
    for (;;) {
      const m = /embedded\s+(http:\/\/\S+\/v3)/.exec(out)
      if (m?.[1] !== undefined) return m[1]
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no provider URL in output:\n${out}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { exited, baseUrl, output: () => out }
}

const replayedIds = async (baseUrl: string): Promise<number[]> => {
  const res = await fetch(`${baseUrl}/football/fixtures/multi/19135043,19683241?api_token=demo-enterprise`)
  return ((await res.json()) as { data: Array<{ id: number }> }).data.map((f) => f.id).sort((a, b) => a - b)
}

describe('touchline provider --replay', () => {
  it('takes every file after one flag (a shell-expanded wildcard), then other options', async () => {
    const p = run(['--replay', ...FILES, '--seed', '2'])
    expect(await replayedIds(await p.baseUrl())).toEqual([19135043, 19683241])
  }, 30_000)

  it('expands a quoted wildcard itself', async () => {
    const p = run(['--replay', `${RECORDED}fixture-*.json`])
    expect(await replayedIds(await p.baseUrl())).toEqual([19135043, 19683241])
  }, 30_000)

  it('stops with exit code 2 naming a file it cannot read, or a flag without a file', async () => {
    const missing = run(['--replay', FILES[0] as string, '/nonexistent/match-day.ndjson'])
    expect(await missing.exited).toBe(2)
    expect(missing.output()).toContain('cannot replay /nonexistent/match-day.ndjson')
    const bare = run(['--replay', '--seed', '2'])
    expect(await bare.exited).toBe(2)
  }, 30_000)
})
