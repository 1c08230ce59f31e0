import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

// The independent fuzzer's run (docs/testing.md, "An independent fuzzer"): not part of `pnpm test`.
export default defineConfig({ ...base, test: { ...base.test, include: ['test/independent/**/*.run.ts'] } })
