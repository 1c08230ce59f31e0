// `pnpm start`: runs the bundled server (dist/server/server.mjs, see build-server.mjs), building
// it first when it is missing or older than a source file of the server's packages. Stack traces
// name the TypeScript sources: the source maps are read when a stack is first printed
// (stack-source-maps.mjs). Development runs from source instead: `pnpm start:source`.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mapStacksLazily } from './stack-source-maps.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bundle = join(root, 'dist/server/server.mjs')
const SOURCES = [
  'packages/core/src',
  'packages/server/src',
  'adapters/h3/src',
  'adapters/kysely/src',
  'adapters/redis/src',
]

function newestSource() {
  let newest = 0
  for (const dir of SOURCES) {
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs)
    }
  }
  return newest
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource()) {
  await import('./build-server.mjs')
}
mapStacksLazily(pathToFileURL(dirname(bundle)).href + '/')
await import(pathToFileURL(bundle).href)
