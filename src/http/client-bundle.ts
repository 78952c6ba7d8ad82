/**
 * The client library for browsers: packages/client bundled by esbuild into ES modules, served by the UI
 * routes under `/lib/`. Each module the pages import has its own entry (`/lib/client.js` the whole library,
 * `/lib/clock.js`, `/lib/delta.js`, ...), and what they share sits in one chunk, so the clock's learned server
 * time is one value for the client and the page alike. Built once per process, on first use, from the
 * package's TypeScript source in a checkout, or from its build where only that is installed (a container).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** URL path under `/lib/` of each entry, and its source in packages/client/src. */
const ENTRIES: Record<string, string> = {
  client: 'index.ts',
  clock: 'clock.ts',
  delta: 'delta.ts',
  frames: 'frames.ts',
  backoff: 'backoff.ts',
  diagnose: 'diagnose.ts'
}

const PACKAGE = fileURLToPath(new URL('../../packages/client/', import.meta.url))

/** Each entry's file: `src/clock.ts`, or `dist/clock.js` without the source. */
function entryPoints (): Record<string, string> {
  const source = existsSync(PACKAGE + 'src/index.ts')
  return Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, PACKAGE + (source ? `src/${file}` : `dist/${file.replace(/\.ts$/, '.js')}`)]))
}

let bundle: Promise<Map<string, Buffer>> | undefined

/** The bundle's files by URL path (`/lib/client.js`, `/lib/chunk-XXXX.js`). */
export async function clientBundle (): Promise<Map<string, Buffer>> {
  bundle ??= build({
    entryPoints: entryPoints(),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Browsers have their own WebSocket: the client only imports `ws` where there is none (Node).
    external: ['ws'],
    outdir: '/lib',
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'silent',
    legalComments: 'none'
  }).then((result) => new Map(result.outputFiles.map((f) => [f.path, Buffer.from(f.contents)])))
  return await bundle
}
