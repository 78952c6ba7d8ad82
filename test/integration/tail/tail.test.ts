/**
 * `touchline tail` as a child process against a real gateway whose store the test drives: readable lines
 * for goals, cards, VAR removals and states; `--json` change frames; `--team` and `--kinds` filters; and a
 * resume after a dropped connection that prints what happened meanwhile exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Match } from '../../helpers/matches.ts'
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { startUiGateway, type UiGateway } from '../browser/harness.ts'
import { waitFor } from '../../helpers/wait.ts'

const BIN = fileURLToPath(new URL('../../../bin/touchline.js', import.meta.url))
const children: ChildProcess[] = []

function tail (args: string[]) {
  const child = spawn(process.execPath, [BIN, 'tail', ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout?.on('data', (d: Buffer) => { out += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { err += d.toString() })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const lines = (): string[] => out.split('\n').filter((l) => l !== '')
  /** Waits for `pattern` in stdout (or in stderr with `stream: 'stderr'`). */
  const inOutput = async (pattern: RegExp, ms = 15_000, stream: 'stdout' | 'stderr' = 'stdout'): Promise<void> => {
    await waitFor(() => `${pattern} in tail ${stream}:\n${out}\nstderr:\n${err}`, () => pattern.test(stream === 'stdout' ? out : err), ms)
  }
  return { child, exited, lines, waitFor: inOutput, stderr: () => err }
}

describe('touchline tail', () => {
  let gw: UiGateway
  let celtic: Match

  beforeAll(async () => {
    gw = await startUiGateway()
    celtic = await gw.matches.start(9001, 501, 'Celtic', 'Kilmarnock', 20)
  })
  afterEach(() => { for (const c of children.splice(0)) c.kill('SIGTERM') })
  afterAll(async () => { await gw?.close() })

  it('prints the snapshot, then goals, cards, VAR removals and states as readable lines', async () => {
    const t = tail(['--url', gw.url, '--league', '501'])
    await t.waitFor(/^20' Celtic 0-0 Kilmarnock$/m)
    await celtic.goal('home', 'K. Furuhashi', 23)
    await t.waitFor(/^23' Celtic 1-0 Kilmarnock {2}goal \(K\. Furuhashi\)$/m)
    await celtic.card('away', 'S. Lyons', 31)
    await t.waitFor(/^31' Celtic 1-0 Kilmarnock {2}yellow card \(S\. Lyons, Kilmarnock\)$/m)
    await celtic.goal('away', 'K. Vassell', 38)
    await celtic.cancelGoal('K. Vassell')
    await t.waitFor(/^38' Celtic 1-0 Kilmarnock {2}goal cancelled by VAR \(K\. Vassell\)$/m)
    await celtic.state('HT')
    await t.waitFor(/^HT Celtic 1-0 Kilmarnock$/m)
    await celtic.state('INPLAY_2ND_HALF')
    await t.waitFor(/Celtic 1-0 Kilmarnock {2}second half$/m)
    // Clock ticks print nothing.
    const before = t.lines().length
    await celtic.clock(47)
    await celtic.card('home', 'C. McGregor', 48, 'REDCARD')
    await t.waitFor(/red card \(C\. McGregor, Celtic\)/)
    expect(t.lines().length).toBe(before + 1)
    t.child.kill('SIGINT')
    expect(await t.exited).toBe(0)
  })

  it('--json prints each change frame as one JSON line', async () => {
    const t = tail(['--url', gw.url, '--fixture', '9001', '--json'])
    // Subscribed (it prints no snapshot in JSON mode): the gateway counts its subscription.
    await waitFor('the subscription', async () => ((await gw.gw.metrics.subscriptions.get()).values[0]?.value ?? 0) >= 1, 10_000)
    const record = await celtic.goal('home', 'D. Maeda', 52)
    await t.waitFor(/"type":"change"/)
    const frames = t.lines().map((l) => JSON.parse(l) as { type: string, cursor: string, changes: unknown[] })
    expect(frames).toHaveLength(1)
    expect(frames[0]).toMatchObject({ type: 'change', cursor: record.cursor, fixture_id: 9001, changes: record.changes })
  })

  it('--since CURSOR prints exactly the changes after the cursor, on its first connection', async () => {
    const dundee = await gw.matches.start(9003, 501, 'Aberdeen', 'Dundee', 30)
    const saved = (await dundee.goal('home', 'B. Miovski', 31)).cursor
    const after = [await dundee.card('away', 'J. Mulligan', 33), await dundee.goal('away', 'S. Tiffoney', 35)]
    const t = tail(['--url', gw.url, '--fixture', '9003', '--since', saved, '--json'])
    await t.waitFor(new RegExp(after[1]?.cursor ?? 'never'))
    // Nothing but those two: no snapshot of the fixture, no change from before the cursor.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(t.lines().map((l) => (JSON.parse(l) as { cursor: string }).cursor)).toEqual(after.map((r) => r.cursor))
    const readable = tail(['--url', gw.url, '--fixture', '9003', '--since', saved])
    await readable.waitFor(/^35' Aberdeen 1-1 Dundee {2}goal \(S\. Tiffoney\)$/m)
    expect(readable.lines()).toEqual(["33' Aberdeen 1-0 Dundee  yellow card (J. Mulligan, Dundee)", "35' Aberdeen 1-1 Dundee  goal (S. Tiffoney)"])
  })

  it('--team follows one team\'s fixtures only, and --kinds prints only those kinds of change', async () => {
    const hearts = await gw.matches.start(9002, 501, 'Hearts', 'Hibernian', 10)
    // The tails of the tests before are gone (killed after each), so the count below is these two.
    const subscriptions = async (): Promise<number> => (await gw.gw.metrics.subscriptions.get()).values[0]?.value ?? 0
    await waitFor('the earlier tails gone', async () => await subscriptions() === 0, 10_000)
    const byTeam = tail(['--url', gw.url, '--team', String(hearts.fixture.away.id), '--json'])
    const goalsOnly = tail(['--url', gw.url, '--league', '501', '--kinds', 'score_changed,state_changed', '--json'])
    await waitFor('both subscriptions', async () => ((await gw.gw.metrics.subscriptions.get()).values[0]?.value ?? 0) >= 2, 10_000)
    await celtic.goal('home', 'N. Kuhn', 80)
    await hearts.card('home', 'B. Nieuwenhof', 12)
    await hearts.goal('away', 'M. Boyle', 14)
    await byTeam.waitFor(/"fixture_id":9002.*score_changed/)
    await goalsOnly.waitFor(/"fixture_id":9002.*score_changed/)
    const frames = (t: ReturnType<typeof tail>) => t.lines().map((l) => JSON.parse(l) as { fixture_id: number, changes: Array<{ kind: string }> })
    // The team's two changes, the card too; nothing of Celtic's match.
    expect(frames(byTeam).map((f) => f.fixture_id)).toEqual([9002, 9002])
    // Both goals, with only their score change; the card had nothing of those kinds and was not sent.
    expect(frames(goalsOnly).map((f) => [f.fixture_id, f.changes.map((c) => c.kind)])).toEqual([[9001, ['score_changed']], [9002, ['score_changed']]])
  })

  it('refuses an unknown change kind with usage and exit code 2', async () => {
    const t = tail(['--url', gw.url, '--kinds', 'goal'])
    expect(await t.exited).toBe(2)
    expect(t.stderr()).toMatch(/--kinds expects change kinds among (\w+, )*fixture_added, .*got "goal"/)
  })

  it('exits 1 when the gateway refuses the key', async () => {
    const t = tail(['--url', gw.url, '--key', 'not-a-key', '--league', '501'])
    expect(await t.exited).toBe(1)
    expect(t.stderr()).toMatch(/refused the connection \(unauthorized\): The gateway does not know this key \(bad key\)/)
  })

  it('says "cannot reach <url>" when nothing answers there, not "no league to follow"', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
    const t = tail(['--url', `http://127.0.0.1:${port}`])
    await t.waitFor(new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); retrying in \\d+\\.\\d s`), 10_000, 'stderr')
    expect(t.stderr()).not.toMatch(/no league/)
  })

  describe('after a dropped connection', () => {
    let proxy: TcpProxy
    beforeAll(async () => { proxy = await startTcpProxy(Number(new URL(gw.url).port)) })
    afterAll(async () => { await proxy?.close() })

    it('reconnects and prints what happened meanwhile, once, from the last cursor', async () => {
      const t = tail(['--url', proxy.url, '--league', '501'])
      await t.waitFor(/Celtic \d-\d Kilmarnock/)
      await celtic.goal('home', 'L. Palma', 60)
      await t.waitFor(/goal \(L\. Palma\)/)
      proxy.pause()
      proxy.cut()
      await t.waitFor(/connection lost/, 15_000, 'stderr')
      await celtic.goal('home', 'A. Idah', 71)
      await celtic.card('away', 'R. Deas', 74)
      proxy.resume()
      await t.waitFor(/yellow card \(R\. Deas, Kilmarnock\)/, 20_000)
      // stderr is its own pipe: its line may come in after stdout's.
      await t.waitFor(/reconnected, resuming after/, 10_000, 'stderr')
      const out = t.lines()
      expect(out.filter((l) => l.includes('goal (A. Idah)'))).toHaveLength(1)
      expect(out.filter((l) => l.includes('goal (L. Palma)'))).toHaveLength(1)
      expect(out.findIndex((l) => l.includes('A. Idah'))).toBeLessThan(out.findIndex((l) => l.includes('R. Deas')))
    })
  })
})
