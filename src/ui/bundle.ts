/**
 * `npm run build:pages`: bundles the packages the pages use for browsers, at build time, into ES modules
 * the UI routes serve under `/lib/` (src/http/client-bundle.ts reads them): `/lib/client.js` the client
 * library (packages/client), `/lib/core.js` what the pages share with it and the gateway (packages/core: the
 * goal and minute rules, the clock, the wire types). What the two share sits in one chunk, so the clock's
 * learned server time is one value for the client and the page alike. Written to `dist/lib/`; run by
 * `npm ci` (the root's `prepare`) and before the tests, so esbuild is a build tool, not a runtime dependency.
 */
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { BUNDLE_DIR } from '../http/client-bundle.ts'

const packageSource = (pkg: string): string => fileURLToPath(new URL(`../../packages/${pkg}/src/index.ts`, import.meta.url))

rmSync(BUNDLE_DIR, { recursive: true, force: true })
await build({
  entryPoints: { client: packageSource('client'), core: packageSource('core') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // Browsers have their own WebSocket: the client only imports `ws` where there is none (Node).
  external: ['ws'],
  // The client imports the core package by name: its source, the same modules as the `core` entry, so the
  // two share a chunk.
  alias: { '@touchline/core': packageSource('core') },
  outdir: BUNDLE_DIR,
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  legalComments: 'none'
})
