import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundle } from '../../scripts/bundle.mjs'

const root = join(import.meta.dirname, '../..')

/**
 * The programs the tests run as child processes, bundled once per run as `pnpm start` bundles the
 * server (scripts/bundle.mjs): a child then starts in well under a second, where loading the
 * workspace's sources through tsx took four to five.
 */
export const CHILD_PROGRAMS = {
  server: 'packages/server/src/bin/server.ts',
  workgraph: 'packages/cli/src/bin/workgraph.ts',
  'mcp-stdio': 'adapters/mcp/src/bin/stdio.ts',
  'crash-server': 'test/support/crash-server.ts',
  'notifier-crash': 'test/support/notifier-crash.ts',
} as const

export type ChildProgram = keyof typeof CHILD_PROGRAMS

export async function bundleChildPrograms(): Promise<{ dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-bundles-'))
  await bundle({
    root,
    entryPoints: Object.entries(CHILD_PROGRAMS).map(([out, input]) => ({ in: input, out })),
    outdir: dir,
  })
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
