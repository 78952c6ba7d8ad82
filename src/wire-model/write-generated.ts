/**
 * `npm run generate`: writes the files generated from the wire model (src/wire-model/generate.ts) into the
 * repository, and says which changed.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { generatedFiles } from './generate.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

for (const [path, content] of Object.entries(await generatedFiles())) {
  const before = await readFile(root + path, 'utf8').catch(() => undefined)
  if (before === content) continue
  await writeFile(root + path, content)
  process.stdout.write(`wrote ${path}\n`)
}
