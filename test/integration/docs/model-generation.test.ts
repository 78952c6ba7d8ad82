/**
 * One model: changing one field of one change kind in src/wire-model/model.ts changes the gateway's own types, the
 * client's declarations and both protocol documents, and nothing else. The test edits a copy of src/wire-model
 * (inside the repository, so its imports resolve), runs the generator and the TypeScript compiler on it, and
 * compares with the model as it is.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatedFiles } from '../../../src/wire-model/generate.ts'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')

type Files = Record<string, string>
type Doc = { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }

/** `score_changed`'s `score_type` renamed `score_kind`, in the full form of the change only. */
function renameScoreType (model: string): string {
  const start = model.indexOf('const ScoreChangedSchema = ')
  const end = model.indexOf(".meta({ id: 'ScoreChanged' })", start)
  if (start < 0 || end < 0) throw new Error('ScoreChangedSchema not found in the model')
  const block = model.slice(start, end)
  if (!block.includes('score_type:')) throw new Error('score_type not found in ScoreChangedSchema')
  return model.slice(0, start) + block.replace('score_type:', 'score_kind:') + model.slice(end)
}

/** A change that only the edited model accepts, typed with the gateway's own `Change`. */
const PROBE = `import type { Change } from './model.ts'
export const change: Change = { kind: 'score_changed', home: 1, away: 0, previous: { home: 0, away: 0 }, score_kind: 'penalty_shootout' }
`

async function typecheck (dir: string): Promise<string> {
  const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
    '--allowImportingTsExtensions', '--types', 'node', 'probe.ts']
  return await run(process.execPath, [TSC, ...args], { cwd: dir }).then(() => 'ok', (err: { stdout?: string }) => err.stdout ?? String(err))
}

describe('changing one field of a change kind in the model', () => {
  let work: string
  let original: string
  let edited: string
  let before: Files
  let after: Files

  beforeAll(async () => {
    mkdirSync(join(ROOT, 'test-results'), { recursive: true })
    work = mkdtempSync(join(ROOT, 'test-results', 'model-edit-'))
    original = join(work, 'original')
    edited = join(work, 'edited')
    for (const dir of [original, edited]) {
      cpSync(join(ROOT, 'src/wire-model'), dir, { recursive: true })
      writeFileSync(join(dir, 'probe.ts'), PROBE)
      writeFileSync(join(dir, 'print.ts'), "import { generatedFiles } from './generate.ts'\nprocess.stdout.write(JSON.stringify(await generatedFiles()))\n")
    }
    writeFileSync(join(edited, 'model.ts'), renameScoreType(readFileSync(join(edited, 'model.ts'), 'utf8')))
    before = await generatedFiles()
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'print.ts'], { cwd: edited, maxBuffer: 16 << 20 })
    after = JSON.parse(stdout) as Files
  }, 60_000)
  afterAll(() => { if (work !== undefined) rmSync(work, { recursive: true, force: true }) })

  it('changes the gateway\'s types: a change with the new field compiles only against the edited model', async () => {
    expect(await typecheck(edited)).toBe('ok')
    expect(await typecheck(original)).toMatch(/score_kind.*does not exist in type/s)
  }, 60_000)

  it('changes the client\'s declarations, in ScoreChanged only', () => {
    const block = (ts: string, name: string): string => ts.slice(ts.indexOf(`export interface ${name} {`), ts.indexOf('\n}\n', ts.indexOf(`export interface ${name} {`)))
    const was = before['packages/core/src/wire.ts'] ?? ''
    const now = after['packages/core/src/wire.ts'] ?? ''
    expect(block(was, 'ScoreChanged')).toContain('score_type?: string')
    expect(block(now, 'ScoreChanged')).toContain('score_kind?: string')
    expect(block(now, 'ScoreChanged')).not.toContain('score_type')
    expect(block(now, 'DeltaScoreChanged')).toBe(block(was, 'DeltaScoreChanged'))
    expect(block(now, 'LiveFixture')).toBe(block(was, 'LiveFixture'))
  })

  it.each(['docs/asyncapi.json', 'docs/openapi.json'])('changes %s, in ScoreChanged only', (path) => {
    const was = JSON.parse(before[path] ?? '{}') as Doc
    const now = JSON.parse(after[path] ?? '{}') as Doc
    expect(Object.keys(was.components.schemas.ScoreChanged?.properties ?? {})).toContain('score_type')
    expect(Object.keys(now.components.schemas.ScoreChanged?.properties ?? {})).toEqual(['kind', 'home', 'away', 'previous', 'score_kind', 'goals'])
    const others = (doc: Doc) => Object.fromEntries(Object.entries(doc.components.schemas).filter(([name]) => name !== 'ScoreChanged'))
    expect(others(now)).toEqual(others(was))
  })

  it('leaves the committed files equal to what the model as it is generates', () => {
    for (const [path, content] of Object.entries(before)) expect(readFileSync(join(ROOT, path), 'utf8'), path).toBe(content)
  })
})
