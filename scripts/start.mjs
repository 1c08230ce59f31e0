// `pnpm start`: runs the bundled server (dist/server/server.cjs, see build-server.mjs, with its code
// cache: run-server.mjs), building it first when it is missing or older than one of the workspace's
// files it was built from (dist/server/sources.json, written by the build: a stat of each, no walk of
// the folders). Development runs from source instead: `pnpm start:source`.
import { readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Whether the bundle is missing, or older than a source it was built from (or one is gone). */
function stale() {
  try {
    const built = statSync(join(root, 'dist/server/server.cjs')).mtimeMs
    const sources = JSON.parse(readFileSync(join(root, 'dist/server/sources.json'), 'utf8'))
    return sources.some((source) => statSync(`${root}/${source}`).mtimeMs > built)
  } catch {
    return true
  }
}

if (stale()) await import('./build-server.mjs')
await import('./run-server.mjs')
