/**
 * The files generated from the wire model are committed (docs/asyncapi.json, docs/openapi.json,
 * packages/core/src/wire.ts) and must be exactly what the model generates: run `npm run generate` after
 * changing src/wire-model, and commit what it writes.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { generatedFiles } from '../../../src/wire-model/generate.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

describe('files generated from the wire model', async () => {
  const files = await generatedFiles()

  it.each(Object.keys(files))('%s is committed as the model generates it (npm run generate)', (path) => {
    expect(readFileSync(ROOT + path, 'utf8')).toBe(files[path])
  })

  it('declare every change kind and frame for the client, and carry the model\'s descriptions', () => {
    const types = files['packages/core/src/wire.ts'] ?? ''
    for (const name of ['LiveFixture', 'Change', 'DeltaChange', 'ScoreChanged', 'ChangeFrame', 'SubscribeFrame', 'ErrorFrame', 'ErrorCode', 'MatchClock']) {
      expect(types).toMatch(new RegExp(`export (interface|type) ${name}\\b`))
    }
    expect(types).toContain('Opaque cursor `<epoch>:<offset>`')
  })
})
