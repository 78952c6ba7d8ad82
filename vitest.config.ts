import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import LongFirst from './test/helpers/sequencer.ts'

/**
 * Integration files whose assertions are wall-clock deadlines of the system under test: a shutdown within
 * its grace, a takeover within the lease time, polls that keep their pace, a heartbeat once per interval,
 * sentinels that take a primary silent for 1 s for dead (the failover test, whose crowd of clients is CPU too).
 * They run apart, after the others, so that the browser tests and the simulated match days (all CPU) do not
 * run beside them.
 */
const DEADLINES = [
  'test/integration/failover/sentinel-failover.test.ts',
  'test/integration/lb/rolling-restart.test.ts',
  'test/integration/ops/drain.test.ts',
  'test/integration/ops/shutdown-inflight.test.ts',
  'test/integration/ops/shutdown-outage.test.ts',
  'test/integration/ops/shutdown-frozen.test.ts',
  'test/integration/ops/signals.test.ts',
  // A Sentinel that cannot answer stops the start within 10 s (it used to hang): CI failed it at 11.6 s with
  // the whole suite beside it, each case a new process (tsx's start included).
  'test/integration/ops/start-checks.test.ts',
  'test/integration/ops/upstream-pools.test.ts',
  'test/integration/ops/workers.test.ts',
  'test/integration/fanout/ws-lifecycle.test.ts',
  'test/integration/resilience/frozen-link.test.ts',
  'test/integration/resilience/leader-kill.test.ts',
  'test/integration/resilience/lease-loss.test.ts',
  'test/integration/scale/leadership.test.ts'
]

/** What the integration files share: the real Redis (checked once by the global setup), longer timeouts. */
const integration = {
  // Only the integration tests need the real Redis: the unit project runs without one.
  globalSetup: ['test/helpers/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // expect.poll waits for a state the system reaches by itself (a row drawn, a push shown). Its default
  // second failed on a busy machine (a service worker woken by a push); a wall-clock goal gives its own
  // timeout, and the deadline files give one everywhere.
  expect: { poll: { timeout: 5_000 } },
  // These files mostly wait on sockets, child processes and simulated match days: more of them run at once
  // than there are cores (three: with four, the browser and Web Push match days starved one another).
  maxWorkers: 3
}

export default defineConfig({
  // The workspace packages' source, not their builds, as tsconfig.json's `paths` says.
  resolve: {
    alias: [
      { find: /^@touchline\/client$/, replacement: fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) },
      { find: /^@touchline\/core$/, replacement: fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)) },
      { find: /^@touchline\/provider$/, replacement: fileURLToPath(new URL('./packages/provider/src/index.ts', import.meta.url)) },
      { find: /^@touchline\/upstream-contract\/(.*)$/, replacement: fileURLToPath(new URL('./packages/upstream-contract/src/', import.meta.url)) + '$1.ts' },
      // The pages import the core package as the bundle the gateway serves beside them (/lib/core.js): in
      // Node, their unit tests get its source.
      { find: /^\.\/core\.js$/, replacement: fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)) }
    ]
  },
  test: {
    sequence: { sequencer: LongFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // First, alone: pure CPU, one worker per core. Without isolation: the files share the modules they
          // import instead of loading them again each (half the time); they hold no state between them.
          sequence: { groupOrder: 0 },
          maxWorkers: 2,
          isolate: false,
          // Some run whole simulated matches (1-5 s alone); vitest's 5 s default failed them on a busy machine.
          testTimeout: 20_000
        }
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          exclude: DEADLINES,
          sequence: { groupOrder: 1 }
        }
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'deadlines',
          include: DEADLINES,
          // One at a time: their deadlines are wall-clock, and three of them bring crowds of clients (1,100
          // through HAProxy, 600 through a failover, workers restarted) that starve whatever runs beside them.
          maxWorkers: 1,
          sequence: { groupOrder: 2 }
        }
      }
    ]
  }
})
