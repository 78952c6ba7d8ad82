/**
 * Scale-out over Redis (docs/architecture.md, "Scale-out"): several gateway instances on one prefix, each tailing the log and
 * fanning out to its own sockets; a cursor handed out by one is valid on another.
 */
import { expect, it, onTestFinished } from 'vitest'
import { WsTestClient } from '../../helpers/ws-client.ts'
import { redisStores } from '../store/helpers.ts'
import { applier, startPush } from './harness.ts'

it('delivers a change applied once through every hub sharing the prefix', async () => {
  const env = redisStores()
  onTestFinished(env.close)
  const a = await startPush({ store: env.open() })
  const b = await startPush({ store: env.open() })
  // The writer is a third instance: the poller's node, which need not serve any socket.
  const apply = applier(env.open())
  const onA = await WsTestClient.connect(a.wsUrl())
  const onB = await WsTestClient.connect(b.wsUrl())
  await onA.request({ op: 'subscribe', ref: '1', leagues: [271], snapshot: false })
  await onB.request({ op: 'subscribe', ref: '1', fixtures: [7], snapshot: false })

  const rec = await apply(7, 271)
  const fromA = await onA.take('change')
  const fromB = await onB.take('change')
  expect(fromA).toEqual({ type: 'change', ...rec })
  expect(fromB).toEqual(fromA)
  await onA.request({ op: 'ping', ref: 'p' })
  expect(onA.changes()).toHaveLength(1)
  expect(onB.changes()).toHaveLength(1)
  onA.close()

  // A client that leaves A resumes on B with A's cursor.
  const later = await apply(7, 271)
  const moved = await WsTestClient.connect(b.wsUrl())
  moved.send({ op: 'subscribe', ref: 'r', leagues: [271], since: fromA.cursor, snapshot: false })
  expect(await moved.take('replay')).toMatchObject({ recovered: true, count: 1 })
  expect((await moved.take('change')).cursor).toBe(later.cursor)
  moved.close()
  onB.close()
})
