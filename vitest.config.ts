import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

// Tests import the typed client by the package's name, as applications do, but its source, not
// the build in dist/ (made on install, so it may lag behind an edit).
const resolve = { alias: { 'media-log-service/client': '/src/client/index.ts' } }

export default defineConfig({
  test: {
    // Vitest leaves one core free by default: on a 2-core machine that is one file at a time.
    maxWorkers: '100%',
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
          // One workerd per worker, reused from file to file: a fresh one per file spent about
          // 2.5 s starting, 120 s a run. Storage is still emptied after every test (test/setup.ts);
          // what lives in a module, as the wrong-key pace does, carries over as in the service.
          isolate: false,
          // `--tags-filter='!slow'` leaves out the cases that build or send tens of MiB (the 60 MiB
          // log, 64 MiB bodies, 8 MiB logs merged in bytes, 100,000-clip manifests): a quicker loop
          // while working. `npm test` and CI run them all.
          tags: [{ name: 'slow', description: 'builds or sends tens of MiB', timeout: 120_000 }],
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/**/*.node.test.ts'],
          setupFiles: ['test/setup.ts'],
        },
      },
      {
        // Pure modules called directly (readers, checks, the large-log scanner, summaries, mail's
        // MIME writer…): plain Node, no workerd to start. What imports a `cloudflare:` module, or
        // goes through the fetch handler, stays in the worker project.
        resolve,
        test: {
          name: 'node',
          include: ['test/**/*.node.test.ts'],
          environment: 'node',
        },
      },
      {
        // End to end, from Node: the real server, a real browser, poppler reading the PDFs.
        resolve,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // Two at a time whatever the cores: the waits of its tests are set for that.
          maxWorkers: 2,
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two files at a time on two cores: 325 s for the 22 files, against 526 s one at a time.
          // So each file keeps ports of its own (a range to `freePort`, or fixed ones), none
          // shared with another file; and waits long enough for a machine busy with the other.
          // After the other projects, not beside them: servers and a browser want the machine.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
