/**
 * The client as an app gets it: `npm pack` of packages/client, installed from the tarball into a fresh
 * directory outside the repository, and used by a plain Node ESM script (test/fixtures/client-app/app.mjs)
 * that is type-checked against the installed declarations under `nodenext` and `bundler`, then run against a
 * real gateway whose store the test drives.
 */
import { execFile, spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { startUiGateway, type UiGateway } from '../browser/harness.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const APP = fileURLToPath(new URL('../../fixtures/client-app/app.mjs', import.meta.url))
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')

/** What `npm pack --json` says of the tarball. */
interface Packed { filename: string, files: Array<{ path: string }> }

/** Runs the app with `args`; resolves with its JSON lines once it exits. Calls `onLine` with each as it comes. */
async function app (dir: string, args: string[], onLine: (line: Record<string, unknown>) => void = () => {}): Promise<Array<Record<string, unknown>>> {
  const child = spawn(process.execPath, ['app.mjs', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  const lines: Array<Record<string, unknown>> = []
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
    for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
      const line = JSON.parse(out.slice(0, i)) as Record<string, unknown>
      out = out.slice(i + 1)
      lines.push(line)
      onLine(line)
    }
  })
  child.stderr.on('data', (d: Buffer) => { err += d.toString() })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  if (code !== 0) throw new Error(`app ${args[0]} exited ${code}: ${err}`)
  return lines
}

describe('@touchline/client installed from its tarball', () => {
  let dir: string
  let packed: Packed
  let core: Packed
  let gw: UiGateway
  let celtic: Match
  let hearts: Match

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'touchline-app-'))
    // The client and the core package it depends on, as both would be published.
    const { stdout } = await run('npm', ['pack', '-w', '@touchline/core', '-w', '@touchline/client', '--pack-destination', dir, '--json'], { cwd: ROOT })
    const tarballs = JSON.parse(stdout) as Array<Packed & { name: string }>
    packed = tarballs.find((t) => t.name === '@touchline/client') as Packed
    core = tarballs.find((t) => t.name === '@touchline/core') as Packed
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }))
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${core.filename}`, `./${packed.filename}`], { cwd: dir })
    copyFileSync(APP, join(dir, 'app.mjs'))
    gw = await startUiGateway()
    celtic = await gw.matches.start(9101, 501, 'Celtic', 'Kilmarnock', 10)
    hearts = await gw.matches.start(9102, 501, 'Hearts', 'Hibernian', 10)
  }, 120_000)
  afterAll(async () => {
    await gw?.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('holds the built library and its declarations only: no source map, test or bench file (the core package too)', () => {
    for (const tarball of [packed, core]) {
      const paths = tarball.files.map((f) => f.path)
      expect(paths).toContain('dist/index.js')
      expect(paths).toContain('dist/index.d.ts')
      expect(paths).toContain('package.json')
      for (const path of paths) expect(path).toMatch(/^(dist\/[\w-]+\.(js|d\.ts)|package\.json|README\.md)$/)
    }
  })

  it('pulls in the core package, ws and nothing of the server', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--parseable'], { cwd: dir })
    const installed = stdout.split('\n').filter((l) => l.includes('node_modules')).map((l) => l.slice(l.lastIndexOf('node_modules/') + 'node_modules/'.length)).sort()
    expect(installed).toEqual(['@touchline/client', '@touchline/core', 'ws'])
    expect(readdirSync(join(dir, 'node_modules')).sort()).toEqual(['.package-lock.json', '@touchline', 'ws'])
  })

  it.each(['nodenext', 'node16', 'bundler', 'node10'] as const)('types a plain ESM app under moduleResolution %s', async (resolution) => {
    const module = resolution === 'nodenext' || resolution === 'node16' ? resolution : 'es2022'
    // skipLibCheck: the declarations are tsc's own output from type-checked sources; what is checked here is
    // that they resolve under each mode and type the app's every use of them.
    const args = ['--noEmit', '--strict', '--allowJs', '--checkJs', '--skipLibCheck', '--module', module, '--moduleResolution', resolution,
      '--target', 'es2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'), 'app.mjs']
    const result = await run(process.execPath, [TSC, ...args], { cwd: dir }).then(() => 'ok', (err: { stdout?: string }) => err.stdout ?? String(err))
    expect(result).toBe('ok')
  }, 60_000)

  it('refuses, in the app\'s type check, a kinds filter with the delta format and a kind that does not exist', async () => {
    writeFileSync(join(dir, 'misuse.mjs'), [
      '// @ts-check',
      "import { TouchlineClient } from '@touchline/client'",
      "const client = new TouchlineClient({ url: 'http://127.0.0.1:1', key: 'k' })",
      "client.subscribe({ kinds: ['score_changed'], format: 'delta' })",
      "client.subscribe({ kinds: ['goal'] })",
      ''
    ].join('\n'))
    const args = ['--noEmit', '--strict', '--allowJs', '--checkJs', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types'), 'misuse.mjs']
    const out = await run(process.execPath, [TSC, ...args], { cwd: dir }).then(() => '', (err: { stdout?: string }) => err.stdout ?? '')
    expect(out).toMatch(/misuse\.mjs\(4,/)
    expect(out).toMatch(/misuse\.mjs\(5,/)
  }, 60_000)

  it('has the snapshot in `fixtures` when connect() resolves', async () => {
    const [line] = await app(dir, ['snapshot', gw.url, 'demo'])
    expect(line).toMatchObject({ state: 'live', ids: [9101, 9102] })
  })

  it('resumes from a saved cursor with `since`: exactly the changes after it, in order, replayed, and every current fixture held', async () => {
    const saved = (await celtic.goal('home', 'K. Furuhashi', 12)).cursor
    const after = [
      await hearts.card('away', 'J. Newell', 14),
      await hearts.goal('away', 'K. Vassell', 15),
      await hearts.goal('home', 'L. Shankland', 16)
    ]
    const [line] = await app(dir, ['resume', gw.url, 'demo', saved, '4'])
    expect(line?.changes).toEqual(after.map((r) => ({ cursor: r.cursor, replayed: true, kinds: r.changes.map((c) => c.kind) })))
    // Celtic did not change after the cursor: only the snapshot that comes with the replay brings it.
    expect(line?.held).toEqual([9101, 9102])
  })

  it('follows one team with kinds ["score_changed"] alone and gets each scorer', async () => {
    const scored = app(dir, ['goals', gw.url, 'demo', String(celtic.fixture.home.id), '3'], (line) => {
      if (line.ready === undefined) return
      // Live: two goals in Celtic's match (one each way, one a penalty), one in another match, then a card.
      const play = async (): Promise<void> => {
        await celtic.goal('home', 'D. Maeda', 20)
        await hearts.goal('away', 'M. Boyle', 21)
        await celtic.goal('away', 'R. Watson', 22, 'PENALTY')
        await celtic.card('home', 'C. McGregor', 23)
        await celtic.goal('home', 'L. Kuhn', 24)
      }
      play().catch((err: unknown) => { throw err })
    })
    const lines = await scored
    expect(lines.at(-1)?.goals).toEqual([
      { fixture: 9101, scorer: 'D. Maeda', minute: 20, type: 'GOAL' },
      { fixture: 9101, scorer: 'R. Watson', minute: 22, type: 'PENALTY' },
      { fixture: 9101, scorer: 'L. Kuhn', minute: 24, type: 'GOAL' }
    ])
  })
})
