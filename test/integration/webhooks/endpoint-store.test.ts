/**
 * The webhook endpoint store's contract (src/webhooks/state.ts), run against both engines: where each
 * endpoint's acknowledged cursor, last state and pause live. For Redis, two stores on two connections share
 * the state, as two gateway instances do; the delivering worker's writes are fenced by its lease.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { PENDING, createEndpointStore, type EndpointStatus, type EndpointStore } from '../../../src/webhooks/state.ts'
import { redisKeys } from '../../../src/store/redis-keys.ts'
import { openTestRedis, type TestRedis } from '../../helpers/redis.ts'

const ACTIVE: EndpointStatus = { ...PENDING, state: 'active', last_status: 200, last_attempt_at: '2026-12-07T15:00:00.000Z', last_ack_at: '2026-12-07T15:00:00.000Z' }
const RETRYING: EndpointStatus = { ...ACTIVE, state: 'retrying', last_status: 503, last_error: 'HTTP 503', failing_since: '2026-12-07T15:01:00.000Z' }

interface Engine {
  /** Two views of one state (in memory the same store: one instance only). */
  open: () => { writer: EndpointStore, reader: EndpointStore }
  /** Makes `holder` the holder of the endpoint's lease, where leases exist. */
  hold: (store: EndpointStore, keyName: string, id: string, holder: string) => Promise<void>
}

const redisEnv: TestRedis = openTestRedis()
afterAll(async () => { await redisEnv.close() })

const ENGINES: Array<[string, Engine]> = [
  ['memory', {
    open: () => { const store = createEndpointStore({ kind: 'memory' }); return { writer: store, reader: store } },
    hold: async () => {}
  }],
  ['redis', {
    open: () => ({
      writer: createEndpointStore({ kind: 'redis', redis: redisEnv.connect(), prefix: redisEnv.prefix }),
      reader: createEndpointStore({ kind: 'redis', redis: redisEnv.connect(), prefix: redisEnv.prefix })
    }),
    hold: async (store, keyName, id, holder) => { await redisEnv.redis.set(redisKeys(redisEnv.prefix).lease(store.leaseName(keyName, id)), holder) }
  }]
]

let endpoints = 0
/** An endpoint id no other test used. */
const fresh = (): string => `ep-${++endpoints}-${Date.now()}`

for (const [name, engine] of ENGINES) {
  describe(`the ${name} webhook endpoint store`, () => {
    it('reads an endpoint never delivered to as pending, with no cursor, not paused', async () => {
      const { reader } = engine.open()
      expect(await reader.read('acme', fresh())).toEqual({ cursor: undefined, status: PENDING, paused: false })
    })

    it('keeps what the holder saves, field by field, for every reader', async () => {
      const { writer, reader } = engine.open()
      const id = fresh()
      await engine.hold(writer, 'acme', id, 'worker-a')
      expect(await writer.save('acme', id, 'worker-a', { cursor: 'e1:41', status: ACTIVE })).toBe(true)
      expect(await reader.read('acme', id)).toEqual({ cursor: 'e1:41', status: ACTIVE, paused: false })
      // A save of one field leaves the others as they were.
      expect(await writer.save('acme', id, 'worker-a', { status: RETRYING })).toBe(true)
      expect(await writer.save('acme', id, 'worker-a', { paused: true })).toBe(true)
      expect(await reader.read('acme', id)).toEqual({ cursor: 'e1:41', status: RETRYING, paused: true })
      expect(await writer.save('acme', id, 'worker-a', {})).toBe(true)
      expect(await reader.read('acme', id)).toEqual({ cursor: 'e1:41', status: RETRYING, paused: true })
    })

    it('keeps each key\'s endpoints apart, the same id under two keys included', async () => {
      const { writer, reader } = engine.open()
      const id = fresh()
      for (const key of ['acme', 'globex']) await engine.hold(writer, key, id, 'worker-a')
      await writer.save('acme', id, 'worker-a', { cursor: 'e1:7' })
      await writer.save('globex', id, 'worker-a', { cursor: 'e1:9', paused: true })
      expect((await reader.read('acme', id)).cursor).toBe('e1:7')
      expect(await reader.read('globex', id)).toMatchObject({ cursor: 'e1:9', paused: true })
      expect(await reader.read('acme', fresh())).toEqual({ cursor: undefined, status: PENDING, paused: false })
    })

    it('resumes a paused endpoint whoever asks, keeping its cursor and state', async () => {
      const { writer, reader } = engine.open()
      const id = fresh()
      await engine.hold(writer, 'acme', id, 'worker-a')
      await writer.save('acme', id, 'worker-a', { cursor: 'e1:12', status: RETRYING, paused: true })
      await reader.resume('acme', id)
      expect(await writer.read('acme', id)).toEqual({ cursor: 'e1:12', status: RETRYING, paused: false })
    })

    it('names one lease per endpoint', () => {
      const { writer } = engine.open()
      expect(writer.leaseName('acme', 'a')).not.toBe(writer.leaseName('acme', 'b'))
      expect(writer.leaseName('acme', 'a')).not.toBe(writer.leaseName('globex', 'a'))
      expect(writer.leaseName('acme', 'a')).toBe(writer.leaseName('acme', 'a'))
    })

    if (name === 'redis') {
      it('refuses a save by a worker that does not hold the endpoint\'s lease (any more), writing nothing', async () => {
        const { writer, reader } = engine.open()
        const id = fresh()
        await engine.hold(writer, 'acme', id, 'worker-a')
        expect(await writer.save('acme', id, 'worker-a', { cursor: 'e1:20', status: ACTIVE })).toBe(true)
        // The lease passed to another worker: the one that stalled cannot move the cursor back or forth.
        await engine.hold(writer, 'acme', id, 'worker-b')
        expect(await writer.save('acme', id, 'worker-a', { cursor: 'e1:19', status: RETRYING, paused: true })).toBe(false)
        expect(await reader.read('acme', id)).toEqual({ cursor: 'e1:20', status: ACTIVE, paused: false })
        expect(await writer.save('acme', id, 'worker-b', { cursor: 'e1:21' })).toBe(true)
        expect((await reader.read('acme', id)).cursor).toBe('e1:21')
      })
    }
  })
}
