/**
 * `npm run lint` keeps the house walkable: it passes on the code as it is, and fails on an import cycle and on
 * an import that runs up a layer (eslint.config.js; the layers are docs/architecture.md's "Source layout").
 * The test writes small probe files into src/, lints them with the project's own configuration, and removes
 * them.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const eslint = new ESLint({ cwd: ROOT })
const probes: string[] = []

/** Writes a probe file (removed after the tests) and returns its path. */
function probe (path: string, text: string): string {
  const file = join(ROOT, path)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
  probes.push(file)
  return file
}

async function ruleIds (files: string[]): Promise<string[]> {
  const results = await eslint.lintFiles(files)
  return results.flatMap((r) => r.messages.map((m) => m.ruleId ?? m.message))
}

afterAll(() => { for (const file of probes) rmSync(file, { force: true, recursive: true }) })

describe('npm run lint', () => {
  it('passes on the gateway and its packages as they are', async () => {
    const results = await eslint.lintFiles(['src', 'packages/core/src', 'packages/client/src', 'packages/upstream-contract/src', 'packages/provider/src'])
    const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line} ${m.ruleId ?? ''} ${m.message}`))
    expect(errors).toEqual([])
  }, 300_000) // the whole tree with type-aware rules: over 120 s on this session's slow machine beside the suite

  it('fails on a deliberate import cycle, in the gateway as in the client package', async () => {
    for (const dir of [`src/util/cycle-${randomUUID().slice(0, 8)}`, `packages/client/src/cycle-${randomUUID().slice(0, 8)}`]) {
      const a = probe(`${dir}/a.ts`, "import { b } from './b.ts'\n\nexport const a = (): number => b() + 1\n")
      const b = probe(`${dir}/b.ts`, "import { a } from './a.ts'\n\nexport const b = (): number => a() - 1\n")
      probes.push(join(ROOT, dir))
      expect(await ruleIds([a, b])).toEqual(['import-x/no-cycle', 'import-x/no-cycle'])
    }
  }, 60_000)

  it('fails on an import that runs up a layer, and on one feature importing another', async () => {
    const up = probe(`src/wire-model/up-${randomUUID().slice(0, 8)}.ts`, "import { createPoller } from '../poller/poller.ts'\n\nexport const probe = createPoller\n")
    const sideways = probe(`src/webhooks/sideways-${randomUUID().slice(0, 8)}.ts`, "import { createHub } from '../fanout/hub.ts'\n\nexport const probe = createHub\n")
    expect(await ruleIds([up])).toEqual(['import-x/no-restricted-paths'])
    expect(await ruleIds([sideways])).toEqual(['import-x/no-restricted-paths'])
  }, 60_000)

  it('fails on an import of the embedded provider anywhere but gateway.ts and the provider command', async () => {
    const starts = probe(`src/poller/provider-${randomUUID().slice(0, 8)}.ts`, "import { startProvider } from '@touchline/provider'\n\nexport const probe = startProvider\n")
    expect(await ruleIds([starts])).toEqual(['no-restricted-imports'])
    expect(await ruleIds([join(ROOT, 'src/gateway.ts'), join(ROOT, 'src/provider-command.ts')])).toEqual([])
  }, 60_000)
})
