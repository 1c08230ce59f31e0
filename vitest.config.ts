import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// `dev-source` resolves workspace packages to their TypeScript sources: no build step in between.
// No `module`: vitest hands these conditions to Node for external packages too, and `module` (a
// bundler's condition) would load files Node cannot, such as the AWS SDK's extensionless `dist-es`.
// Without it, packages load as they do in production.
const conditions = ['dev-source', 'node', 'development|production']

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once even on two cores (Vitest's default there is one): most of a file's time is
    // spent waiting on Postgres, child servers and timers, so the run takes about half as long. Each
    // worker has its own Postgres database (test/support/databases.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
  },
})
