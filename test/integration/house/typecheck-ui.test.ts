/**
 * The browser's code (the scoreboard, the match page, the status page, the widget: plain ES modules with JSDoc
 * types) is type-checked as TypeScript (tsconfig.ui.json, also run by `npm run typecheck`) against the DOM and
 * the client library's source: it passes as it is, and a deliberate type error in a page fails it. The error
 * is written into the compiler's view of the page, not into the file (other tests serve the pages meanwhile).
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** The type errors of the browser's code, each as `file:line message`; `edit` changes one file as the compiler reads it. */
function typeErrors (edit?: { file: string, append: string }): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.ui.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')) } })
  if (config === undefined) throw new Error('tsconfig.ui.json not read')
  const host = ts.createCompilerHost(config.options)
  if (edit !== undefined) {
    const read = host.readFile.bind(host)
    host.readFile = (name) => name === join(ROOT, edit.file) ? `${read(name) ?? ''}\n${edit.append}\n` : read(name)
  }
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file === undefined || d.start === undefined ? '' : `${d.file.fileName.slice(ROOT.length)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} `
    return `${at}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`
  })
}

describe('the browser\'s code, type-checked', () => {
  it('passes as it is', () => {
    expect(typeErrors()).toEqual([])
  }, 240_000) // a whole program with the DOM: 10 s on an idle machine, 40 s beside the suite

  it('fails on a deliberate type error in a page', () => {
    // The scoreboard asks a score line of a fixture id: the page's helpers take a fixture.
    const errors = typeErrors({ file: 'src/ui/public/app.js', append: "import { scoreLine } from './lib/format.js'\nexport const line = scoreLine(19000744)" })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/^src\/ui\/public\/app\.js:\d+ TS2345 Argument of type 'number' is not assignable to parameter of type 'LiveFixture'/)
  }, 240_000) // a whole program with the DOM: 10 s on an idle machine, 40 s beside the suite
})
