/**
 * The answer of `GET /v1/fixtures` (docs/protocol.md, "Days"): every fixture of the days asked, as JSON,
 * with a weak ETag over the fixtures and the body compressed for the encodings clients accept. A day is large
 * (300 fixtures, a few hundred KB of JSON) and read by every page that shows it, so each answer is built once
 * per snapshot (the hub shares one while no change is routed) and each encoding compressed once, on first
 * use: node:zlib's brotli at a quality fit for answers made on the fly, and gzip for the rest.
 */
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Snapshot } from '../fanout/snapshot-cache.ts'
import type { LiveFixture } from '../wire-model/model.ts'
import { bySchedule } from '../store/types.ts'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Brotli quality 5: about gzip's time for a fifth less (docs/benchmarks.md, "The day"). */
const BROTLI_QUALITY = 5
/** Bodies smaller than this go as they are: compressing them saves less than its headers cost. */
const COMPRESS_FROM = 1024

export type Encoding = 'br' | 'gzip' | 'identity'

export interface DayAnswer {
  /** `W/"<digest of the fixtures>"`: the same fixtures, the same tag, whatever the cursor. */
  etag: string
  /** The body in an encoding (none for a small body), compressed on first use. */
  body: (encoding: Encoding) => Promise<{ encoding: Encoding, bytes: Buffer }>
}

export interface DayQuery {
  dates: string[]
  tz: string
  /** Narrowing the days to these leagues, fixtures or teams (any of them matches); undefined: every fixture. */
  narrow?: (f: LiveFixture) => boolean
}

/** The answers built per snapshot, by query; dropped with the snapshot. */
const built = new WeakMap<Snapshot, Map<string, DayAnswer>>()

/** The answer for `query` from `snap` (its fixtures, by kick-off then id), built once per snapshot and query. */
export function dayAnswer (snap: Snapshot, query: DayQuery, queryKey: string): DayAnswer {
  let answers = built.get(snap)
  if (answers === undefined) built.set(snap, answers = new Map())
  const hit = answers.get(queryKey)
  if (hit !== undefined) return hit
  const fixtures = (query.narrow === undefined ? [...snap.list] : snap.list.filter(query.narrow)).sort(bySchedule)
  const data = JSON.stringify(fixtures)
  const json = Buffer.from(`{"data":${data},"cursor":${JSON.stringify(snap.cursor)},"dates":${JSON.stringify(query.dates)},"tz":${JSON.stringify(query.tz)},"count":${fixtures.length}}`)
  const etag = `W/"${createHash('sha1').update(data).update(query.tz).update(query.dates.join(',')).digest('base64url')}"`
  const encoded = new Map<Encoding, Promise<Buffer>>([['identity', Promise.resolve(json)]])
  const answer: DayAnswer = {
    etag,
    body: async (encoding) => {
      const use = json.length < COMPRESS_FROM ? 'identity' : encoding
      let body = encoded.get(use)
      if (body === undefined) {
        body = use === 'br' ? brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } }) : gz(json)
        // A failed compression is not kept: the next request tries again.
        body.catch(() => { encoded.delete(use) })
        encoded.set(use, body)
      }
      return { encoding: use, bytes: await body }
    }
  }
  answers.set(queryKey, answer)
  return answer
}

/** The encoding to answer with: brotli, else gzip, else none, as `Accept-Encoding` allows (q=0 refuses). */
export function pickEncoding (accept: string | undefined): Encoding {
  const allowed = new Map<string, number>()
  for (const part of (accept ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (name === undefined || name === '') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    allowed.set(name, q === undefined ? 1 : Number(q.slice(2)))
  }
  const ok = (name: string): boolean => (allowed.get(name) ?? allowed.get('*') ?? 0) > 0
  if (ok('br')) return 'br'
  if (ok('gzip')) return 'gzip'
  return 'identity'
}

/** Whether `If-None-Match` names the tag (weak comparison, as for GET). */
export function notModified (ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  const strip = (tag: string): string => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag))
}
