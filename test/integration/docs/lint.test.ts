/**
 * Both protocol documents pass Redocly's recommended lint rules with no error. The only warnings allowed are
 * named here: the operations endpoints take no input, so they have no 4xx answer to declare.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

interface Report {
  totals: { errors: number, warnings: number }
  problems: Array<{ ruleId: string, severity: string, location: Array<{ source: { ref: string }, pointer: string }> }>
}

const NO_INPUT = ['/v1/status', '/healthz', '/readyz', '/metrics'].map((path) => `#/paths/${path.replaceAll('/', '~1')}/get/responses`)

describe('redocly lint', () => {
  it('finds no error in docs/openapi.json and docs/asyncapi.json, and no warning but the 4xx of the operations endpoints', async () => {
    const { stdout } = await run(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'docs/openapi.json', 'docs/asyncapi.json', '--format=json'],
      { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 16 << 20 })
    // One report per document, one after the other: `}{` at the start of a line is where the next begins.
    const reports = JSON.parse(`[${stdout.slice(stdout.indexOf('{')).replace(/^\}\{$/gm, '},{')}]`) as Report[]
    expect(reports).toHaveLength(2)
    for (const report of reports) expect(report.totals.errors).toBe(0)
    const warnings = reports.flatMap((r) => r.problems).map((p) => `${p.ruleId} ${p.location[0]?.source.ref} ${p.location[0]?.pointer}`)
    expect(warnings.sort()).toEqual(NO_INPUT.map((pointer) => `operation-4xx-response docs/openapi.json ${pointer}`).sort())
  }, 60_000)
})
