/**
 * The packages the pages use, bundled for browsers by esbuild into ES modules served by the UI routes under
 * `/lib/`: `/lib/client.js` the client library (packages/client), `/lib/core.js` what the pages share with it
 * and the gateway (packages/core: the goal and minute rules, the clock, the wire types). What the two share
 * sits in one chunk, so the clock's learned server time is one value for the client and the page alike.
 * Built once per process, on first use, from each package's TypeScript source in a checkout, or from its
 * build where only that is installed (a container).
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

/** URL path under `/lib/` of each entry: its package. */
const ENTRIES: Record<string, 'client' | 'core'> = { client: 'client', core: 'core' }

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url))

/** Each entry's file: the package's `src/index.ts`, or `dist/index.js` without the source. */
function entryPoints (): Record<string, string> {
  return Object.fromEntries(Object.entries(ENTRIES).map(([name, pkg]) => {
    const dir = `${PACKAGES}${pkg}/`
    return [name, existsSync(`${dir}src/index.ts`) ? `${dir}src/index.ts` : `${dir}dist/index.js`]
  }))
}

/**
 * The client imports the core package by name: from its source where the checkout has it (the same
 * modules as the `core` entry, so they share a chunk), else as installed.
 */
const coreSource = (): Record<string, string> => existsSync(`${PACKAGES}core/src/index.ts`) ? { '@touchline/core': `${PACKAGES}core/src/index.ts` } : {}

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
    alias: coreSource(),
    outdir: '/lib',
    chunkNames: 'chunk-[hash]',
    write: false,
    logLevel: 'silent',
    legalComments: 'none'
  }).then((result) => new Map(result.outputFiles.map((f) => [f.path, Buffer.from(f.contents)])))
  return await bundle
}
