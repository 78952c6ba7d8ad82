/**
 * What people see: the scoreboard (`/`), the status page (`/status`), the embeddable widget (`/widget.js`)
 * and their modules and styles, served from `src/ui/public/`, and the client library they run on, bundled
 * from packages/client (client-bundle.ts). A handful of small files, so they are read once at start and held
 * in memory with their ETag: no static-file dependency, no disk read per request.
 *
 * - HTML: `Cache-Control: no-cache` (revalidated with the ETag each time) and a Content-Security-Policy that
 *   allows only the gateway's own scripts, styles and sockets (team crests may come from any https host).
 * - The scoreboard's page carries the league priority (TOUCHLINE_LEAGUE_PRIORITY) in a meta tag, written
 *   into it once at start: the page orders its leagues by it without another request.
 * - Scripts and styles: `Cache-Control: no-cache` too (module URLs carry no version, so a cached copy could
 *   mix old and new modules after a deploy; revalidating is a cheap 304 with the ETag), and readable from
 *   any origin (`Access-Control-Allow-Origin: *`), because the widget imports its modules cross-origin from
 *   the host page. They are public code.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyPluginAsync } from 'fastify'
import { clientBundle } from './client-bundle.ts'

export interface UiRouteDeps {
  /** Directory of the static files. @default src/ui/public next to this module's folder */
  root?: string
  /** League ids the scoreboard lists first, in this order (TOUCHLINE_LEAGUE_PRIORITY). @default none */
  leaguePriority?: readonly number[]
}

interface Asset {
  body: Buffer
  type: string
  etag: string
  headers: Record<string, string>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8'
}

/** Pages get friendly paths; every other file is served at its path under the root. */
const PAGES: Record<string, string> = { '/': 'index.html', '/status': 'status.html' }

const HTML_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self' ws: wss:",
  "base-uri 'none'",
  "frame-ancestors 'self'"
].join('; ')

const defaultUiRoot = (): string => fileURLToPath(new URL('../ui/public/', import.meta.url))

function walk (dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

/** A file as served: its body, type, ETag and headers. */
function asset (body: Buffer, type: string): Asset {
  const html = type.startsWith('text/html')
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'cache-control': html ? 'no-cache' : 'public, no-cache'
  }
  if (html) {
    headers['content-security-policy'] = HTML_CSP
    headers['referrer-policy'] = 'same-origin'
  } else {
    headers['access-control-allow-origin'] = '*'
    headers['cross-origin-resource-policy'] = 'cross-origin'
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
  return { body, type, etag, headers }
}

/** The scoreboard's meta tag that carries the league priority (empty in the file). */
const PRIORITY_META = '<meta name="touchline-league-priority" content="">'

/** The scoreboard page with the league priority written into its meta tag. */
function withPriority (page: Asset, priority: readonly number[]): Asset {
  const html = page.body.toString('utf8')
  if (priority.length === 0 || !html.includes(PRIORITY_META)) return page
  return asset(Buffer.from(html.replace(PRIORITY_META, `<meta name="touchline-league-priority" content="${priority.join(',')}">`)), page.type)
}

/** Reads every servable file under `root`, keyed by URL path (`/app.js`, `/lib/live.js`). */
function loadAssets (root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  for (const file of walk(root)) {
    const type = TYPES[extname(file)]
    if (type === undefined) continue
    assets.set('/' + relative(root, file).split(sep).join('/'), asset(readFileSync(file), type))
  }
  return assets
}

export function uiRoutes (deps: UiRouteDeps = {}): FastifyPluginAsync {
  return async (app) => {
    const root = deps.root ?? defaultUiRoot()
    if (!existsSync(root)) {
      app.log.warn({ root }, 'ui files not found; the scoreboard, status page and widget are not served')
      return
    }
    const assets = loadAssets(root)
    const index = assets.get('/index.html')
    if (index !== undefined) assets.set('/index.html', withPriority(index, deps.leaguePriority ?? []))
    // The client library (packages/client), bundled for browsers: /lib/client.js and the modules beside it.
    for (const [path, body] of await clientBundle()) assets.set(path, asset(body, TYPES['.js'] as string))
    for (const [page, file] of Object.entries(PAGES)) {
      const asset = assets.get('/' + file)
      if (asset !== undefined) assets.set(page, asset)
    }
    for (const [path, asset] of assets) {
      app.get(path, async (request, reply) => {
        reply.headers(asset.headers).header('etag', asset.etag).type(asset.type)
        if (request.headers['if-none-match'] === asset.etag) return await reply.code(304).send()
        return await reply.send(asset.body)
      })
    }
  }
}
