/**
 * Webhooks follow the keys file: a reload starts a new endpoint, stops a removed one,
 * restarts a changed one from its acknowledged cursor, and resumes a paused one.
 */
import { writeFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { applier } from '../fanout/harness.ts'
import { acknowledged, hookKey, SECRET, startHookGateway, startReceiver, wholeLog, writeKeys } from './harness.ts'
import { waitFor } from '../../helpers/wait.ts'

it('a keys reload adds, removes, changes and resumes endpoints; a changed endpoint goes on from its cursor', async () => {
  let down = true
  const a = await startReceiver(() => down ? 500 : 200)
  const b = await startReceiver()
  const c = await startReceiver()
  const path = writeKeys([hookKey([{ id: 'a', url: a.url, secret: SECRET }, { id: 'b', url: b.url, secret: SECRET }])])
  const gw = await startHookGateway(path, { TOUCHLINE_WEBHOOK_PAUSE_AFTER_MS: '1000' })
  const state = async (): Promise<Record<string, string>> =>
    Object.fromEntries((await gw.webhooks.list(gw.keys.all()[0]!)).map((v) => [v.id, v.state]))
  await waitFor('endpoints started', async () => Object.values(await state()).every((s) => s !== 'pending'), 5000)
  const start = await gw.store.head()
  const apply = applier(gw.store)
  for (let i = 0; i < 5; i++) await apply(3, 271)
  await waitFor('a paused', async () => (await state()).a === 'paused', 5000)
  await waitFor('b delivered', () => acknowledged(b).length === 5, 5000)

  // `b` moves to receiver c (same id: its cursor is kept), `a` stays (paused: resumed), `n` is new.
  down = false
  writeFileSync(path, JSON.stringify([hookKey([{ id: 'a', url: a.url, secret: SECRET }, { id: 'b', url: c.url, secret: SECRET }, { id: 'n', url: b.url, secret: SECRET, leagues: [501] }])]))
  await gw.reloadKeys()
  await waitFor('n started', async () => (await state()).n === 'active', 5000)
  for (let i = 0; i < 3; i++) await apply(4, 501)
  const head = await gw.store.head()
  await waitFor('all caught up', async () => (await gw.webhooks.list(gw.keys.all()[0]!)).every((v) => v.cursor === head), 10_000)
  const log = (await wholeLog(gw.store, start)).map((r) => r.cursor)
  expect(acknowledged(a).map((f) => f.cursor)).toEqual(log)
  expect(acknowledged(b, 'b').map((f) => f.cursor)).toEqual(log.slice(0, 5))
  expect(acknowledged(c).map((f) => f.cursor)).toEqual(log.slice(5))
  expect(acknowledged(b, 'n').map((f) => f.cursor)).toEqual(log.slice(5))
  expect(await state()).toEqual({ a: 'active', b: 'active', n: 'active' })

  // Removed from the file: no more deliveries.
  writeFileSync(path, JSON.stringify([hookKey([{ id: 'a', url: a.url, secret: SECRET }])]))
  await gw.reloadKeys()
  const before = c.requests.length
  await apply(4, 501)
  const last = await gw.store.head()
  await waitFor('a caught up', async () => (await gw.webhooks.list(gw.keys.all()[0]!))[0]?.cursor === last, 5000)
  expect(c.requests.length).toBe(before)
  expect((await gw.webhooks.summary()).endpoints).toBe(1)
}, 30_000)
