// `pnpm start`: runs the bundled server (dist/server/server.mjs, see build-server.mjs), building
// it first when it is missing or older than one of the workspace's files it was built from
// (dist/server/sources.json, written by the build: a stat of each, no walk of the folders). Stack
// traces name the TypeScript sources: the source maps are read when a stack is first printed
// (stack-source-maps.mjs). Development runs from source instead: `pnpm start:source`.
import { readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mapStacksLazily } from './stack-source-maps.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundle = join(root, 'dist/server/server.mjs')

/** Whether the bundle is missing, or older than a source it was built from (or one is gone). */
function stale() {
  try {
    const built = statSync(bundle).mtimeMs
    const sources = JSON.parse(readFileSync(join(root, 'dist/server/sources.json'), 'utf8'))
    return sources.some((source) => statSync(`${root}/${source}`).mtimeMs > built)
  } catch {
    return true
  }
}

if (stale()) await import('./build-server.mjs')
mapStacksLazily(`${pathToFileURL(dirname(bundle)).href}/`)
await import(pathToFileURL(bundle).href)
