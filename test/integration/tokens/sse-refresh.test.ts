/**
 * A token on SSE is renewed by a new stream (docs/tokens.md, "Renewing a token"): EventSource cannot send a
 * frame, so before the token runs out the page opens a stream with a new token and `Last-Event-ID` the last
 * id it received, then closes the old one. Every change goes out once across the two streams, none lost in
 * the switch, and the old stream ends at its token's expiry (plus the key's grace).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Gateway } from '../../../src/gateway.ts'
import { startTestGateway } from '../../helpers/gateway.ts'
import { matches } from '../../helpers/matches.ts'
import { waitFor } from '../../helpers/wait.ts'
import { mintToken } from '../../helpers/tokens.ts'

const SECRET = 'the-sites-backend-secret-of-32-characters!'
const KEYS = [{ key: 'site-key', name: 'site', leagues: [8], tokens: { secrets: [SECRET], expiry_grace_s: 1 } }]

async function token (ttlS: number): Promise<string> {
  return await mintToken({ iss: 'site', secret: SECRET, sub: 'fan-sse', ttlS })
}

interface SseEvent { event: string, id: string, goals: number }

/** An SSE stream's events (name, id, goals of the fixture) as they come, and when it ended. */
function stream (url: string, lastEventId?: string): { events: SseEvent[], changes: () => SseEvent[], ended: Promise<void>, abort: () => void } {
  const events: SseEvent[] = []
  const controller = new AbortController()
  const ended = (async () => {
    const res = await fetch(url, { signal: controller.signal, headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId } })
    expect(res.status).toBe(200)
    const decoder = new TextDecoder()
    let text = ''
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true })
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const field = (name: string): string | undefined => block.split('\n').find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim()
        const event = field('event')
        if (event === undefined) continue
        const data = JSON.parse(field('data') ?? '{}') as { fixture?: { events?: Array<{ type: string }> } }
        events.push({ event, id: field('id') ?? '', goals: (data.fixture?.events ?? []).filter((e) => e.type === 'GOAL').length })
      }
    }
  })().catch((err: unknown) => { if ((err as Error).name !== 'AbortError') throw err })
  return { events, changes: () => events.filter((e) => e.event === 'change'), ended, abort: () => controller.abort() }
}

let gw: Gateway
beforeAll(async () => {
  gw = await startTestGateway({ env: { TOUCHLINE_UPSTREAM_URL: 'http://127.0.0.1:9/v3' }, keys: KEYS, overrides: { poll: false } })
}, 30_000)
afterAll(async () => { await gw?.close() })

it('switches to a stream with a new token and Last-Event-ID with every change once, and ends the old one at its expiry', async () => {
  const match = await matches(gw.store).start(8201, 8, 'Bolton', 'Wigan')
  const old = stream(`${gw.url}/v1/sse?fixtures=8201&access_token=${await token(3)}`)
  const snapshot = await waitFor(() => `the first stream's snapshot (${JSON.stringify(old.events)})`, () => old.events.find((e) => e.event === 'snapshot'))
  await match.goal('home', 'Charles', 10)
  await match.goal('away', 'Keane', 20)
  await waitFor(() => `the goals on the old stream (${JSON.stringify(old.events)})`, () => old.changes().some((e) => e.goals === 2))
  // The switch: a new stream from the last id received, then the old one let go (here: left to expire).
  const last = old.changes().at(-1)?.id ?? ''
  const kept = old.changes().map((e) => e.id)
  const renewed = stream(`${gw.url}/v1/sse?fixtures=8201&access_token=${await token(600)}`, last)
  await match.goal('home', 'Sheehan', 30)
  await waitFor(() => `the third goal on the new stream (${JSON.stringify(renewed.events)})`, () => renewed.changes().some((e) => e.goals === 3))
  // The old stream ends by itself once its token and the grace are over; the new one stays.
  await old.ended
  await match.goal('away', 'Dale', 40)
  await waitFor(() => 'the fourth goal on the new stream', () => renewed.changes().some((e) => e.goals === 4))

  // Every change of the log after the snapshot once: the old stream's up to the switch, the new one's after.
  const log = await (await fetch(`${gw.url}/v1/changes?api_token=site-key&fixtures=8201&since=${encodeURIComponent(snapshot.id)}&limit=1000`)).json() as { data: Array<{ cursor: string }> }
  const received = [...kept, ...renewed.changes().map((e) => e.id)]
  expect(new Set(received).size).toBe(received.length)
  expect(received).toEqual(log.data.map((c) => c.cursor))
  expect(renewed.events.some((e) => e.event === 'snapshot')).toBe(false)
  renewed.abort()
}, 20_000)
