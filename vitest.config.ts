import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] }
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      }
    ]
  }
})
