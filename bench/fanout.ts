/**
 * Fan-out benchmark: touchline's hub behind /v1/live against a bare `ws` broadcast loop and against the
 * floor (one pre-built frame written to each raw socket, no ws, no protocol), with the same subscribers (a
 * separate process of raw sockets on 127.0.0.1) and the same payload.
 *
 *   npx tsx bench/fanout.ts [--subscribers 10000] [--burst 200] [--rate 10] [--seconds 5] [--rounds 1] [--mode touchline,baseline,floor,stack] [--pin]
 *
 * `--mode` takes a comma-separated list (default: touchline, baseline, floor; `stack` is touchline's fastify
 * and @fastify/websocket without the hub).
 * Loopback throughput on a small VM varies by ±30 % between runs; `--rounds 3` alternates the modes (each
 * round starting one mode later) and compares medians. `ulimit -n` is per process: the server and its
 * subscriber process each hold one descriptor per subscriber, so a hard limit of 20,000 allows about 19,900
 * subscribers.
 * Each mode runs in a fresh server process (so one mode's heap does not skew the other's memory figure),
 * which forks its subscriber process. Both hold one socket per subscriber: `ulimit -n` must exceed the
 * subscriber count plus a few dozen (raise it with `ulimit -n 65536` before running with more than ~19,000).
 *
 * Reported per mode:
 *   idle memory   RSS and heap+external growth of the server after N idle connections, divided by N
 *   burst         `--burst` changes pushed back to back: deliveries per second end to end (first publish
 *                 to last frame received; on a 2-core machine this includes the subscriber process' own
 *                 work), server fan-out rate (deliveries per second of time spent inside publish) and
 *                 deliveries per server CPU-second (the steadiest of the three on a shared machine)
 *   latency       `--rate` changes per second for `--seconds`: publish-to-receive p50 / p99 / max, and the
 *                 server's CPU per delivery over the phase
 * BENCH_SERVER_FLAGS passes node flags to the server processes (say `--cpu-prof` or `--trace-gc`).
 * BENCH_HEARTBEAT_MS sets touchline's heartbeat (default 25,000; a huge value pings nobody), to weigh its share.
 *
 * Connecting with signed tokens (docs/tokens.md; the harness is described in fanout-tokens.ts):
 *
 *   npx tsx bench/fanout.ts --tokens none,hs256,es256 [--storm 2000] [--spread-ms 1000] [--verify 20000] [--rounds 1] [--pin] [--backlog 511]
 *
 * measures the gateway's `verifyToken` in process (µs per token, HS256 and ES256, against the key lookup) and
 * storms of `--storm` connections opened within `--spread-ms` to /v1/live, each with a token of its own
 * (one `sub` per client) or with the key alone (always run, the yardstick), alternating over `--rounds`:
 * time until all have their hello frame, p50 / p99 connect-to-hello, server CPU per connection. With
 * `--tokens` the delivery modes run only when `--mode` is given as well.
 */
import { execSync, fork } from 'node:child_process'
import { parseArgs, pinTo, type ModeResult } from './fanout-shared.ts'
import { runTokenBench, tokenOptions } from './fanout-tokens.ts'

async function runMode (mode: ModeResult['mode'], args: ReturnType<typeof parseArgs>): Promise<ModeResult> {
  const { modes: _modes, rounds: _rounds, ...rest } = args
  const child = fork(new URL('./fanout-server.ts', import.meta.url), [JSON.stringify({ ...rest, mode })], { execArgv: ['--expose-gc', ...(process.env.BENCH_SERVER_FLAGS?.split(' ') ?? []), '--import', 'tsx'] })
  if (args.pin && child.pid !== undefined) pinTo(child.pid, 0)
  return await new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve(msg as ModeResult))
    child.once('exit', (code) => { if (code !== 0) reject(new Error(`${mode} run exited with ${code}`)) })
  })
}

const kib = (bytes: number): string => (bytes / 1024).toFixed(1)
const int = (n: number): string => Math.round(n).toLocaleString('en-US')

function print (r: ModeResult): void {
  console.log(`\n${r.mode}: ${r.connected}/${r.subscribers} subscribers connected`)
  console.log(`  idle memory per connection   ${kib(r.idleRssPerConn)} KiB RSS, ${kib(r.idleHeapPerConn)} KiB heap+external`)
  console.log(`  burst of ${r.burst.changes} changes         ${int(r.burst.perSecond)} deliveries/s end to end (${int(r.burst.deliveries)} in ${r.burst.seconds.toFixed(2)} s)`)
  console.log(`  server fan-out               ${int(r.burst.serverFanoutPerSecond)} deliveries/s of publish time, ${int(r.burst.deliveries / r.burst.serverCpuSeconds)} per server CPU-second`)
  console.log(`  latency (${r.latency.changes} paced changes)  p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms, max ${r.latency.max.toFixed(1)} ms (${int(r.latency.deliveries)} deliveries, ${(r.latency.serverCpuSeconds * 1e6 / r.latency.deliveries).toFixed(1)} µs server CPU each)`)
  if (r.slowConsumerCloses > 0) console.log(`  slow-consumer closes         ${r.slowConsumerCloses}`)
}

async function main (): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  const tokens = tokenOptions(process.argv.slice(2))
  if (tokens !== undefined) {
    await runTokenBench(tokens)
    if (!process.argv.includes('--mode')) return
  }
  let limit = 'unknown'
  try { limit = execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim() } catch {}
  if (Number(limit) < args.subscribers + 64) console.warn(`ulimit -n is ${limit}: raise it (ulimit -n 65536) or use fewer --subscribers`)
  console.log(`fan-out benchmark: ${args.subscribers} subscribers, burst ${args.burst}, ${args.rate}/s for ${args.seconds} s, ulimit -n ${limit}`)
  const results: Array<ModeResult & { round: number }> = []
  for (let round = 0; round < args.rounds; round++) {
    // Each round starts one mode later (touchline, plain, floor; plain, floor, touchline; ...), so over as
    // many rounds as modes each mode runs once in each position and a drift within a round (the VM
    // warming up or slowing down) does not always favour the same mode.
    for (const mode of rotate(args.modes, round)) {
      const r = await runMode(mode, args)
      print(r)
      results.push({ ...r, round })
    }
  }
  const of = (mode: ModeResult['mode']): typeof results => results.filter((r) => r.mode === mode)
  const ours = of('touchline')
  const mid = (rs: ModeResult[], pick: (r: ModeResult) => number): number => median(rs.map(pick))
  const perCpu = (r: ModeResult): number => r.burst.deliveries / r.burst.serverCpuSeconds
  for (const other of ['baseline', 'floor'] as const) {
    const base = of(other)
    if (ours.length === 0 || base.length === 0) continue
    const ratio = (pick: (r: ModeResult) => number): string => (mid(ours, pick) / mid(base, pick)).toFixed(2)
    console.log(`\ntouchline / ${other} (medians of ${args.rounds} round${args.rounds > 1 ? 's' : ''})`)
    console.log(`  end-to-end throughput  ${ratio((r) => r.burst.perSecond)}x`)
    console.log(`  server CPU efficiency  ${ratio(perCpu)}x (deliveries per server CPU-second; goal >= ${other === 'floor' ? '0.9' : '1.0'})`)
    console.log(`  p99 at ${args.rate}/s          ${mid(ours, (r) => r.latency.p99).toFixed(0)} ms against ${mid(base, (r) => r.latency.p99).toFixed(0)} ms`)
  }
  console.log('')
  for (const mode of args.modes) {
    const rs = of(mode)
    console.log(`${mode.padEnd(10)} median: ${int(mid(rs, perCpu))} deliveries per server CPU-second (${(1e6 / mid(rs, perCpu)).toFixed(1)} µs each), idle ${kib(mid(rs, (r) => r.idleRssPerConn))} KiB RSS per connection, p50/p99 ${mid(rs, (r) => r.latency.p50).toFixed(0)}/${mid(rs, (r) => r.latency.p99).toFixed(0)} ms`)
  }
  // The spread behind each median: one round moves by more than the gaps being compared on a small VM.
  if (args.rounds > 1) {
    console.log('\nround by round')
    for (const mode of args.modes) {
      const rs = of(mode)
      console.log(`${mode.padEnd(10)} per CPU-second ${rs.map((r) => int(perCpu(r))).join(', ')}; p99 ${rs.map((r) => r.latency.p99.toFixed(0)).join(', ')} ms`)
    }
    // Paired within each round (the modes of one round ran minutes apart, the rounds further apart): the
    // spread of these says how far one run's medians can be trusted.
    for (const other of ['baseline', 'floor'] as const) {
      const pairs = ours.flatMap((r) => {
        const b = results.find((x) => x.mode === other && x.round === r.round)
        return b === undefined ? [] : [perCpu(r) / perCpu(b)]
      })
      if (pairs.length > 0) console.log(`touchline / ${other} per CPU-second, round by round: ${pairs.map((x) => x.toFixed(2)).join(', ')}`)
    }
  }
}

/** The list starting at position `by` (mod its length), wrapping around. */
function rotate<T> (list: readonly T[], by: number): T[] {
  const k = by % list.length
  return [...list.slice(k), ...list.slice(0, k)]
}

function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] as number : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
