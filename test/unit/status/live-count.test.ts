/**
 * `/v1/status` counts the live fixtures as the scoreboard's Live tab does: the phases of IN_PLAY_PHASES
 * (packages/upstream-contract/src/states.ts) are those of IN_PLAY in the page's src/ui/public/lib/feed.js, read from its
 * source (the module imports the client bundle, which Node cannot load).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { IN_PLAY_PHASES } from '../../../packages/upstream-contract/src/states.ts'

describe('the phases counted as live', () => {
  it('are the scoreboard\'s Live tab\'s', () => {
    const source = readFileSync(new URL('../../../src/ui/public/lib/feed.js', import.meta.url), 'utf8')
    const list = /export const IN_PLAY = new Set\(\[([^\]]*)\]\)/.exec(source)?.[1]
    expect(list, 'IN_PLAY in lib/feed.js').toBeDefined()
    const page = [...(list ?? '').matchAll(/'([a-z]+)'/g)].map((m) => m[1])
    expect([...IN_PLAY_PHASES].sort()).toEqual(page.sort())
  })
})
