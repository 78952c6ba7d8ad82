/**
 * The shared cache under a percent-encoded path: `/football/%65xpected/fixtures` is cached under the same
 * key as `/football/expected/fixtures`, so it must be routed as that endpoint too. Were it judged as an
 * unknown path, its entry's league refs would read its rows as fixtures (an xG row's own `id` taken for a
 * fixture id), and a scoped key's later request could be served another league's rows from that entry
 * whenever the ids collide.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { expectNoLeaks, get, startPassthroughGateway } from './harness.ts'

/** Fixture 100 is league 271's, fixture 200 league 501's. The xG row of fixture 200 has id 100. */
const FIXTURES: Record<number, number> = { 100: 271, 200: 501 }
const XG = [{ id: 100, fixture_id: 200, type_id: 5304, data: { value: 2.3 } }]

const body = (data: unknown, entity: string): string =>
  JSON.stringify({ data, subscription: [], rate_limit: { resets_in_seconds: 3600, remaining: 2999, requested_entity: entity }, timezone: 'UTC' })

async function startUpstream (): Promise<string> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const multi = /^\/v3\/football\/fixtures\/multi\/([\d,]+)$/.exec(path)
    const one = /^\/v3\/football\/fixtures\/(\d+)$/.exec(path)
    let status = 200
    let text: string
    if (multi !== null) text = body((multi[1] ?? '').split(',').map(Number).filter((id) => FIXTURES[id] !== undefined).map((id) => ({ id, league_id: FIXTURES[id] })), 'Fixture')
    else if (one !== null && FIXTURES[Number(one[1])] !== undefined) text = body({ id: Number(one[1]), league_id: FIXTURES[Number(one[1])], state_id: 1, starting_at_timestamp: 1 }, 'Fixture')
    else if (path === '/v3/football/expected/fixtures') text = body(XG, 'Expected')
    else { status = 404; text = JSON.stringify({ message: 'No result(s) found.' }) }
    res.writeHead(status, { 'content-type': 'application/json' }).end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => { await new Promise((resolve) => server.close(resolve)) })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`
}

afterEach(() => { expectNoLeaks() })

/** A gateway on that upstream with a key scoped to league 271 and an unscoped one; its URLs for a key. */
async function gateway (): Promise<(path: string, key: string) => string> {
  const t = await startPassthroughGateway({
    keys: [{ key: 'tl-271-key', name: 'danish', leagues: [271] }, { key: 'tl-all-key', name: 'all' }],
    upstreamUrl: await startUpstream(),
    overrides: { poll: false }
  })
  onTestFinished(async () => { await t.close() })
  return (path, key) => `${t.base}${path}?api_token=${key}`
}

describe('the shared cache between an unscoped and a scoped key', () => {
  it('never serves a scoped key an xG row of another league\'s fixture', async () => {
    const url = await gateway()

    // The scoped key reads its own fixture 100: the scope's index learns 100 -> 271.
    expect((await get(url('/football/fixtures/100', 'tl-271-key'))).status).toBe(200)
    // Any unscoped client asks for the xG list with the family segment percent-encoded.
    const all = await get(url('/football/%65xpected/fixtures', 'tl-all-key'))
    expect(all.status).toBe(200)
    expect(all.body.data).toEqual(XG)
    // The scoped key asks for the same list by its catalogue path: cache hit on the forwarded entry.
    const scoped = await get(url('/football/expected/fixtures', 'tl-271-key'))
    expect(scoped.status).toBe(200)
    expect(scoped.body.data.map((r: any) => r.fixture_id), 'xG rows of fixture 200 (league 501)').toEqual([])
  })

  it('control: with no encoded request first, the same row is withheld', async () => {
    const url = await gateway()
    expect((await get(url('/football/fixtures/100', 'tl-271-key'))).status).toBe(200)
    expect((await get(url('/football/expected/fixtures', 'tl-all-key'))).status).toBe(200)
    const scoped = await get(url('/football/expected/fixtures', 'tl-271-key'))
    expect(scoped.status).toBe(200)
    expect(scoped.body.data).toEqual([])
  })
})
