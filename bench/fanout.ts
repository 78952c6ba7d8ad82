/**
 * Fan-out benchmark: touchline's hub behind /v1/live against a bare `ws` broadcast loop, with the same
 * subscribers (a separate process of raw sockets on 127.0.0.1) and the same payload.
 *
 *   npx tsx bench/fanout.ts [--subscribers 10000] [--burst 200] [--rate 10] [--seconds 5] [--rounds 1] [--mode touchline|baseline]
 *
 * Loopback throughput on a small VM varies by ±30 % between runs; `--rounds 3` alternates the modes and
 * compares medians.
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
 *   latency       `--rate` changes per second for `--seconds`: publish-to-receive p50 / p99 / max
 */
import { execSync, fork } from 'node:child_process'
import { parseArgs, type ModeResult } from './fanout-shared.ts'

async function runMode (mode: ModeResult['mode'], args: ReturnType<typeof parseArgs>): Promise<ModeResult> {
  const { modes: _modes, rounds: _rounds, ...rest } = args
  const child = fork(new URL('./fanout-server.ts', import.meta.url), [JSON.stringify({ ...rest, mode })], { execArgv: ['--expose-gc', '--import', 'tsx'] })
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
  console.log(`  latency (${r.latency.changes} paced changes)  p50 ${r.latency.p50.toFixed(1)} ms, p99 ${r.latency.p99.toFixed(1)} ms, max ${r.latency.max.toFixed(1)} ms (${int(r.latency.deliveries)} deliveries)`)
  if (r.slowConsumerCloses > 0) console.log(`  slow-consumer closes         ${r.slowConsumerCloses}`)
}

async function main (): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  let limit = 'unknown'
  try { limit = execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim() } catch {}
  if (Number(limit) < args.subscribers + 64) console.warn(`ulimit -n is ${limit}: raise it (ulimit -n 65536) or use fewer --subscribers`)
  console.log(`fan-out benchmark: ${args.subscribers} subscribers, burst ${args.burst}, ${args.rate}/s for ${args.seconds} s, ulimit -n ${limit}`)
  const results: ModeResult[] = []
  for (let round = 0; round < args.rounds; round++) {
    for (const mode of args.modes) {
      const r = await runMode(mode, args)
      print(r)
      results.push(r)
    }
  }
  const ours = results.filter((r) => r.mode === 'touchline')
  const base = results.filter((r) => r.mode === 'baseline')
  if (ours.length === 0 || base.length === 0) return
  const ratio = (pick: (r: ModeResult) => number): number => median(ours.map(pick)) / median(base.map(pick))
  console.log(`\ntouchline / baseline (medians of ${args.rounds} round${args.rounds > 1 ? 's' : ''})`)
  console.log(`  end-to-end throughput  ${ratio((r) => r.burst.perSecond).toFixed(2)}x   (goal >= 0.9)`)
  console.log(`  server fan-out rate    ${ratio((r) => r.burst.serverFanoutPerSecond).toFixed(2)}x (publish wall time)`)
  console.log(`  server CPU efficiency  ${ratio((r) => r.burst.deliveries / r.burst.serverCpuSeconds).toFixed(2)}x (deliveries per server CPU-second)`)
  console.log(`  idle memory            ${kib(median(ours.map((r) => r.idleRssPerConn)))} KiB RSS per connection (goal <= 16), baseline ${kib(median(base.map((r) => r.idleRssPerConn)))} KiB`)
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
