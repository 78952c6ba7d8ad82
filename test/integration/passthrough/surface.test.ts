/**
 * The passthrough in front of an upstream that speaks the real API's newer surface (a tiny local server):
 * cursor pagination with `next_cursor` as a full URL or a bare token, paths and includes the catalogue
 * does not know, refusals of wrong names, repeated parameters, and a client that lies in its Host header.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { envelope, startServer, type CannedReply, type SeenRequest, type TestServer } from '../../unit/upstream/client-server.ts'
import { expectNoLeaks, get, startPassthroughGateway, UPSTREAM_TOKEN, type Res, type TestGateway } from './harness.ts'
import { openTestRedis } from '../../helpers/redis.ts'

const KEY = 'tl-surface-key'
const SCOPED = 'tl-surface-scoped'
const PUBLIC_URL = 'https://touchline.example/gw'
const ROWS = [1, 2, 3, 4, 5].map((id) => ({ id, name: `Team ${id}` }))

let upstream: TestServer
let gw: TestGateway
/** The same upstream behind a gateway with TOUCHLINE_PUBLIC_URL set. */
let pub: TestGateway

/**
 * A list paged two rows at a time by cursor (`c<index>`), as the real API since 2026-06-05: `next_cursor`
 * as the upstream's own full URL (with its token), or as a bare token.
 */
function cursorPages (form: 'url' | 'bare', path: string) {
  return (req: SeenRequest): CannedReply => {
    const cursor = req.query.get('cursor')
    const from = cursor === null ? 0 : Number(cursor.slice(1))
    const rows = ROWS.slice(from, from + 2)
    const more = from + 2 < ROWS.length
    const token = `c${from + 2}`
    const next = form === 'url' ? `${upstream.origin}/v3${path}?cursor=${token}&api_token=${UPSTREAM_TOKEN}` : token
    return {
      body: envelope(rows, {
        pagination: {
          count: rows.length,
          per_page: 2,
          current_page: from / 2 + 1,
          next_page: more ? `${upstream.origin}/v3${path}?page=${from / 2 + 2}&api_token=${UPSTREAM_TOKEN}` : null,
          next_cursor: more ? next : null,
          has_more: more
        }
      })
    }
  }
}

const url = (base: string, path: string, key = KEY): string => `${base}${path}${path.includes('?') ? '&' : '?'}api_token=${key}`

/** GET through a gateway; the upstream's host and token must appear in no body and no header. */
async function fetchVia (base: string, path: string, key = KEY, headers: Record<string, string> = {}): Promise<Res> {
  return await fetchUrl(url(base, path, key), headers)
}

async function fetchUrl (target: string, headers: Record<string, string> = {}): Promise<Res> {
  const path = target
  const res = await get(target, headers)
  const everything = `${res.text}\n${JSON.stringify(res.headers)}`
  expect(everything, `${path} names the upstream host`).not.toContain(upstream.origin.replace('http://', ''))
  expect(everything, `${path} carries the upstream token`).not.toContain(UPSTREAM_TOKEN)
  return res
}

beforeAll(async () => {
  upstream = await startServer()
  upstream.on('/football/teams', cursorPages('url', '/football/teams'))
  upstream.on('/football/venues', cursorPages('bare', '/football/venues'))
  upstream.on('/football/expected/shotmaps', { body: envelope([{ fixture_id: 19146701, team_id: 1, formation: '4-3-3' }], { rate_limit: { remaining: 2900, resets_in_seconds: 1800, requested_entity: 'Expected' } }) })
  upstream.on('/football/fixtures/19146701', (req) => {
    const include = req.query.get('include') ?? ''
    if (include.includes('nonsense')) {
      return { status: 400, body: { message: `The requested include nonsense does not exist (${upstream.origin}/v3/football/fixtures/19146701?api_token=${UPSTREAM_TOKEN})`, code: 5001 } }
    }
    return { body: envelope({ id: 19146701, league_id: 271, ...(include.includes('shotmap') ? { shotmap: [{ minute: 1, value: 0.4 }] } : {}) }) }
  })
  upstream.on('/football/players', (req) => ({ body: envelope([{ id: 1, per_page: req.query.get('per_page') }]) }))
  const keys = [{ key: KEY, name: 'surface' }, { key: SCOPED, name: 'scoped', leagues: [271] }]
  gw = await startPassthroughGateway({ keys, upstreamUrl: upstream.baseUrl, overrides: { poll: false } })
  pub = await startPassthroughGateway({ keys, upstreamUrl: upstream.baseUrl, overrides: { poll: false }, env: { TOUCHLINE_PUBLIC_URL: `${PUBLIC_URL}/` } })
})
afterAll(async () => {
  await Promise.all([gw.close(), pub.close()])
  await upstream.close()
})
afterEach(() => { expectNoLeaks() })

const hits = (path: string, since: number): SeenRequest[] => upstream.seen.slice(since).filter((r) => r.path === path)

describe('cursor pagination through the gateway', () => {
  it('rewrites a full-URL next_cursor to the gateway; walking it yields every row once, each page cached on its own', async () => {
    const start = upstream.seen.length
    const rows: unknown[] = []
    let next: string | null = url(gw.base, '/football/teams')
    let pages = 0
    while (next !== null) {
      expect(next.startsWith(`${gw.base}/football/teams?`), next).toBe(true)
      const res = await fetchUrl(next)
      expect(res.status, res.text).toBe(200)
      expect(res.headers['x-cache']).toBe('miss')
      rows.push(...res.body.data)
      next = res.body.pagination.next_cursor
      if (next !== null) expect(new URL(next).searchParams.get('api_token'), 'the link carries the client\'s own key').toBe(KEY)
      pages++
    }
    expect(rows).toEqual(ROWS)
    expect(pages).toBe(3)
    const seen = hits('/football/teams', start)
    expect(seen.map((r) => r.query.get('cursor'))).toEqual([null, 'c2', 'c4'])
    expect(seen.every((r) => r.query.getAll('api_token').join() === UPSTREAM_TOKEN), 'the upstream gets the gateway\'s token only').toBe(true)
    // Each cursor page is its own cache entry: asked again, none reaches the upstream.
    for (const cursor of ['c2', 'c4']) expect((await fetchVia(gw.base, `/football/teams?cursor=${cursor}`)).headers['x-cache']).toBe('hit')
    expect(hits('/football/teams', start)).toHaveLength(3)
  })

  it('keeps a bare next_cursor bare and takes it back as cursor=', async () => {
    const first = await fetchVia(gw.base, '/football/venues')
    expect(first.body.pagination.next_cursor).toBe('c2')
    const second = await fetchVia(gw.base, `/football/venues?cursor=${first.body.pagination.next_cursor as string}`)
    expect(second.body.data).toEqual(ROWS.slice(2, 4))
    expect(second.body.pagination.next_cursor).toBe('c4')
  })

  it('refuses cursor with per_page locally with the upstream\'s 400, like the real API', async () => {
    const start = upstream.seen.length
    const res = await fetchVia(gw.base, '/football/teams?cursor=c2&per_page=10')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ message: expect.any(String), errors: { cursor: [expect.stringContaining('per_page')] } })
    expect(res.body).not.toHaveProperty('rate_limit')
    expect(upstream.seen.length - start).toBe(0)
  })
})

describe('names the catalogue does not know', () => {
  it('forwards an unknown path and serves its 200, charged to the closest family\'s entity', async () => {
    const res = await fetchVia(gw.base, '/football/expected/shotmaps')
    expect(res.status, res.text).toBe(200)
    expect(res.body.data).toEqual([{ fixture_id: 19146701, team_id: 1, formation: '4-3-3' }])
    expect(res.body.rate_limit.requested_entity).toBe('Expected')
  })

  it('forwards an unknown include and serves what the upstream knows of it', async () => {
    const res = await fetchVia(gw.base, '/football/fixtures/19146701?include=shotmap;participants')
    expect(res.status, res.text).toBe(200)
    expect(res.body.data.shotmap).toEqual([{ minute: 1, value: 0.4 }])
  })

  it('costs one upstream call for an unknown name\'s 4xx across 20 identical requests', async () => {
    const path = '/football/fixtures/19146701?include=nonsense'
    const start = upstream.seen.length
    const answers = await Promise.all(Array.from({ length: 10 }, async () => await fetchVia(gw.base, path)))
    for (let i = 0; i < 10; i++) answers.push(await fetchVia(gw.base, path))
    for (const res of answers) {
      expect(res.status).toBe(400)
      expect(res.body?.code, res.text).toBe(5001)
    }
    expect(hits('/football/fixtures/19146701', start)).toHaveLength(1)
    expect(answers.at(-1)?.headers['x-cache']).toBe('hit')
  })

  it('still refuses bad syntax locally, whatever the names', async () => {
    const start = upstream.seen.length
    for (const path of [
      '/football/expected/shotmaps?include=shotmap,participants',
      '/football/expected/shotmaps?include=a b',
      '/football/expected/shotmaps?include=a.b.c.d.e',
      '/football/expected/shotmaps?per_page=51',
      '/football/expected/shotmaps?filters=shotmapTypes:',
      '/football/expected/shotmaps?timezone=Mars/Olympus',
      '/football/expected/shotmaps?colour=blue',
      '/football/fixtures/19146701?include=shotmap&page=2'
    ]) {
      const res = await fetchVia(gw.base, path)
      expect(res.status, `${path}: ${res.text}`).toBe(400)
      expect(Object.keys(res.body.errors)).toHaveLength(1)
    }
    expect((await fetchVia(gw.base, '/cricket/leagues')).status, 'another sport is the upstream\'s 404').toBe(404)
    expect(upstream.seen.length - start).toBe(0)
  })

  it('refuses unknown names to a key limited to some leagues, whose scope it could not check', async () => {
    const start = upstream.seen.length
    for (const path of ['/football/expected/shotmaps', '/football/fixtures/19146701?include=shotmap']) {
      const res = await fetchVia(gw.base, path, SCOPED)
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ error: expect.any(String), resource: expect.any(String), plan_required: expect.any(String) })
    }
    expect(upstream.seen.length - start).toBe(0)
  })

  it('needs the key\'s feature for an unknown path of a paid family', async () => {
    const noXg = await startPassthroughGateway({ keys: [{ key: 'tl-no-xg', name: 'no-xg', features: [] } as never], upstreamUrl: upstream.baseUrl, overrides: { poll: false } })
    try {
      const res = await get(url(noXg.base, '/football/expected/shotmaps', 'tl-no-xg'))
      expect(res.status).toBe(403)
    } finally {
      await noXg.close()
    }
  })
})

describe('repeated parameters', () => {
  it('take their last value, and that is what reaches the upstream', async () => {
    const start = upstream.seen.length
    const res = await fetchVia(gw.base, '/football/players?per_page=5&per_page=3')
    expect(res.status, res.text).toBe(200)
    expect(hits('/football/players', start).map((r) => r.query.getAll('per_page'))).toEqual([['3']])
  })
})

describe('links', () => {
  it('are built on TOUCHLINE_PUBLIC_URL whatever the Host header says', async () => {
    const res = await fetchVia(pub.base, '/football/teams', KEY, { host: 'evil.example' })
    const { next_page: nextPage, next_cursor: nextCursor } = res.body.pagination
    expect(nextPage).toBe(`${PUBLIC_URL}/v3/football/teams?api_token=${KEY}&page=2`)
    expect(nextCursor).toBe(`${PUBLIC_URL}/v3/football/teams?api_token=${KEY}&cursor=c2`)
  })

  it('default to the listener\'s URL', async () => {
    const res = await fetchVia(gw.base, '/football/teams', KEY, { host: 'evil.example' })
    expect(res.body.pagination.next_page).toBe(`${gw.base}/football/teams?api_token=${KEY}&page=2`)
  })
})

describe('the negative cache over Redis', () => {
  it('serves an unknown name\'s cached 4xx from Redis to a second instance without an upstream call', async () => {
    const redis = openTestRedis()
    const opts = { keys: [{ key: KEY, name: 'surface' }], upstreamUrl: upstream.baseUrl, redis: { url: redis.url, prefix: redis.prefix }, overrides: { poll: false } }
    const [a, b] = await Promise.all([startPassthroughGateway(opts), startPassthroughGateway(opts)])
    try {
      const start = upstream.seen.length
      const path = '/football/fixtures/19146701?include=nonsense;participants'
      expect((await fetchVia(a.base, path)).status).toBe(400)
      const again = await fetchVia(b.base, path)
      expect(again.status).toBe(400)
      expect(again.headers['x-cache']).toBe('hit')
      expect(hits('/football/fixtures/19146701', start)).toHaveLength(1)
    } finally {
      await Promise.all([a.close(), b.close()])
      await redis.close()
    }
  })
})
