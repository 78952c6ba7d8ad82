import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // The client library's source, not its build, as tsconfig.json's `paths` says.
  resolve: { alias: [{ find: /^@touchline\/client$/, replacement: fileURLToPath(new URL('./packages/client/src/index.ts', import.meta.url)) }] },
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
