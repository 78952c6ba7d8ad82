import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
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
          isolate: false
        }
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          // Only the integration tests need the real Redis: the unit project runs without one.
          globalSetup: ['test/helpers/global-setup.ts'],
          // Then these: they mostly wait on sockets, child processes and simulated match days, so more
          // files run at once than there are cores.
          sequence: { groupOrder: 1 },
          maxWorkers: 4,
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      }
    ]
  }
})
