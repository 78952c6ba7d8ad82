/**
 * The address a webhook connection actually reaches is checked too, not only the URL's name beforehand
 * (selfTarget): a connection whose peer is this machine at the gateway's port is closed before anything is
 * sent and the attempt is `refused`, so a name that resolves elsewhere at the check and to the gateway at
 * the connect (DNS rebinding) cannot make it post to itself. A real HTTP server stands in for the listener.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createWebhookAgent, postWebhook } from '../../../src/webhooks/post.ts'

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((resolve) => s.close(resolve))
  }
})

async function receiver (): Promise<{ port: number, requests: () => number }> {
  let requests = 0
  const server = createServer((req, res) => { requests++; req.resume(); res.writeHead(204).end() })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as AddressInfo).port, requests: () => requests }
}

const attempt = (port: number, dispatcher: ReturnType<typeof createWebhookAgent>) => postWebhook({
  url: `http://localhost:${port}/hook`,
  webhookId: 'w',
  deliveryId: 'd',
  secret: 'whsec_test',
  body: '{}',
  timeoutMs: 2000,
  signal: new AbortController().signal,
  dispatcher
})

describe('a webhook connection that reaches the gateway itself', () => {
  it('is refused before anything is sent when its peer is this machine at the listener\'s port', async () => {
    const gateway = await receiver()
    const agent = createWebhookAgent(() => ({ host: '127.0.0.1', port: gateway.port }))
    try {
      expect(await attempt(gateway.port, agent)).toMatchObject({ outcome: 'refused', status: null, error: expect.stringContaining('gateway\'s own listener') })
      expect(gateway.requests()).toBe(0)
    } finally {
      await agent.destroy()
    }
  })

  it('goes through to another port of this machine, and before the gateway listens', async () => {
    const other = await receiver()
    const agent = createWebhookAgent(() => ({ host: '127.0.0.1', port: other.port + 1 }))
    const early = createWebhookAgent(() => undefined)
    try {
      expect(await attempt(other.port, agent)).toMatchObject({ outcome: 'acked', status: 204 })
      expect(await attempt(other.port, early)).toMatchObject({ outcome: 'acked', status: 204 })
      expect(other.requests()).toBe(2)
    } finally {
      await agent.destroy()
      await early.destroy()
    }
  })
})
