/**
 * The packages the pages use, bundled for browsers at build time (`npm run build:pages`, src/ui/bundle.ts)
 * into `dist/lib/`: `/lib/client.js` the client library, `/lib/core.js` the core package, and the chunk they
 * share. Read once per process, on first use.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the build writes the bundle: `dist/lib/` at the repository's (or the image's) root. */
export const BUNDLE_DIR = fileURLToPath(new URL('../../dist/lib/', import.meta.url))

let bundle: Map<string, Buffer> | undefined

/**
 * The bundle's files by URL path (`/lib/client.js`, `/lib/chunk-XXXX.js`). Throws, saying how to make it,
 * when the build has not run: the pages cannot work without it.
 */
export function clientBundle (): Map<string, Buffer> {
  if (bundle !== undefined) return bundle
  if (!existsSync(`${BUNDLE_DIR}client.js`)) throw new Error(`the pages' bundle of the client library is missing (${BUNDLE_DIR}client.js): run \`npm run build:pages\` (\`npm ci\` runs it)`)
  bundle = new Map(readdirSync(BUNDLE_DIR).filter((f) => f.endsWith('.js')).map((f) => [`/lib/${f}`, readFileSync(`${BUNDLE_DIR}${f}`)]))
  return bundle
}
