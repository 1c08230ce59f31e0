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
  // Vitest's own environment, which loads the global setup (it migrates the template databases).
  environments: { __vitest__: { resolve: { conditions } } },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker imports the ~900 modules once and runs its files one after another in that graph,
    // instead of importing them again for every file. What holds state lives on a server, an engine
    // or a database of its own, which every suite makes fresh (docs/testing.md).
    isolate: false,
    // Two files at once even on two cores (Vitest's default there is one): most of a file's time is
    // spent waiting on Postgres, child servers and timers, so the run takes about half as long. Each
    // suite has databases of its own, copied from the run's templates (test/support/templates.ts).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/fast-check-seed.ts'],
  },
})
