/**
 * What people see: the scoreboard (`/`), the status page (`/status`), the embeddable widget (`/widget.js`)
 * and their modules and styles, served from `src/ui/public/`, and the client library they run on, bundled
 * from packages/client (client-bundle.ts). A handful of small files, so they are read once at start and held
 * in memory with their ETag: no static-file dependency, no disk read per request.
 *
 * - HTML: `Cache-Control: no-cache` (revalidated with the ETag each time) and a Content-Security-Policy that
 *   allows only the gateway's own scripts, styles and sockets (team crests may come from any https host).
 * - The scoreboard's page carries the league priority (TOUCHLINE_LEAGUE_PRIORITY) and whether the gateway
 *   offers Web Push in meta tags, written into it once at start: the page orders its leagues and offers
 *   alerts (or not, without asking for a key the gateway does not have) without another request.
 * - Scripts and styles: `Cache-Control: no-cache` too (module URLs carry no version, so a cached copy could
 *   mix old and new modules after a deploy; revalidating is a cheap 304 with the ETag), and readable from
 *   any origin (`Access-Control-Allow-Origin: *`), because the widget imports its modules cross-origin from
 *   the host page. They are public code.
 * - Text files go compressed where the browser takes it (brotli at its best quality, else gzip), each
 *   encoding made once, at its first request: the scoreboard's first load is a fifth of its size.
 */
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { clientBundle } from './client-bundle.ts'
import { pickEncoding, type Encoding } from './day-answer.ts'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

export interface UiRouteDeps {
  /** Directory of the static files. @default src/ui/public next to this module's folder */
  root?: string
  /** League ids the scoreboard lists first, in this order (TOUCHLINE_LEAGUE_PRIORITY). @default none */
  leaguePriority?: readonly number[]
  /** Whether Web Push alerts are offered (a VAPID key is set). @default false */
  push?: boolean
}

interface Asset {
  body: Buffer
  type: string
  etag: string
  headers: Record<string, string>
  /** The body in each encoding asked for so far (text files only), made on first use. */
  encoded: Map<Encoding, Promise<Buffer>>
}

/** Text files smaller than this go as they are: compressing them saves less than its headers cost. */
const COMPRESS_FROM = 1024

/** An asset's body in the encoding the request takes (brotli, gzip, or none), compressed once. */
async function encodedBody (asset: Asset, accept: string | undefined): Promise<{ encoding: Encoding, body: Buffer }> {
  const text = asset.type.startsWith('text/') || asset.type.startsWith('image/svg') || asset.type.startsWith('application/json')
  const encoding = text && asset.body.length >= COMPRESS_FROM ? pickEncoding(accept) : 'identity'
  if (encoding === 'identity') return { encoding, body: asset.body }
  let body = asset.encoded.get(encoding)
  if (body === undefined) {
    body = encoding === 'br'
      ? brotli(asset.body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.length } })
      : gz(asset.body, { level: 9 })
    // A failed compression is not kept: the next request tries again.
    body.catch(() => { asset.encoded.delete(encoding) })
    asset.encoded.set(encoding, body)
  }
  return { encoding, body: await body }
}

/**
 * Answers a request for an asset: 304 for its ETag, else its body, compressed where the browser takes it.
 * Each encoding has its own tag (`"<digest>-br"`), as a strong ETag names one representation.
 */
async function sendAsset (asset: Asset, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { encoding, body } = await encodedBody(asset, request.headers['accept-encoding'])
  const etag = encoding === 'identity' ? asset.etag : `${asset.etag.slice(0, -1)}-${encoding}"`
  reply.headers(asset.headers).header('etag', etag).header('vary', 'accept-encoding').type(asset.type)
  if (request.headers['if-none-match'] === etag) return await reply.code(304).send()
  if (encoding !== 'identity') reply.header('content-encoding', encoding)
  return await reply.send(body)
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
  return { body, type, etag, headers, encoded: new Map() }
}

/** The scoreboard's meta tags that carry the league priority and the push offer (empty in the file). */
const PRIORITY_META = '<meta name="touchline-league-priority" content="">'
const PUSH_META = '<meta name="touchline-push" content="">'

/** The scoreboard page with the league priority and the push offer written into its meta tags. */
function withSettings (page: Asset, priority: readonly number[], push: boolean): Asset {
  const html = page.body.toString('utf8')
    .replace(PRIORITY_META, `<meta name="touchline-league-priority" content="${priority.join(',')}">`)
    .replace(PUSH_META, `<meta name="touchline-push" content="${push ? 'on' : 'off'}">`)
  return asset(Buffer.from(html), page.type)
}

/** Reads every servable file under `root`, keyed by URL path (`/app.js`, `/lib/feed.js`). */
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
    if (index !== undefined) assets.set('/index.html', withSettings(index, deps.leaguePriority ?? [], deps.push === true))
    // The client library (packages/client), bundled for browsers: /lib/client.js and the modules beside it.
    for (const [path, body] of clientBundle()) assets.set(path, asset(body, TYPES['.js'] as string))
    for (const [page, file] of Object.entries(PAGES)) {
      const asset = assets.get('/' + file)
      if (asset !== undefined) assets.set(page, asset)
    }
    for (const [path, asset] of assets) {
      app.get(path, async (request, reply) => await sendAsset(asset, request, reply))
    }
    // A match's page at its own address (`/match/19000744`): the page reads the id from it.
    const matchPage = assets.get('/match.html')
    if (matchPage !== undefined) {
      app.get('/match/:id', async (request, reply) => {
        const id = (request.params as { id: string }).id
        if (!/^[1-9][0-9]{0,15}$/.test(id)) return await reply.code(404).type('text/plain; charset=utf-8').send('no such match page')
        return await sendAsset(matchPage, request, reply)
      })
    }
  }
}
