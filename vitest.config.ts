import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

// Tests import the typed client by the package's name, as applications do, but its source, not
// the build in dist/ (made on install, so it may lag behind an edit).
const resolve = { alias: { 'media-log-service/client': '/src/client/index.ts' } }

export default defineConfig({
  test: {
    projects: [
      {
        // The service itself, in workerd, through the same fetch handler `npm start` serves.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: { OPERATOR_KEY: 'test-operator-key-0123456789abcdef', AUTH_TIMEOUT_SECONDS: '2' },
            },
          }),
        ],
        resolve,
        test: {
          name: 'worker',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        // End to end, from Node: the real server, a real browser, poppler reading the PDFs.
        resolve,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
