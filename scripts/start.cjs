// `pnpm start`: runs the bundled server (dist/server/server.cjs, see build-server.mjs, with its code
// cache: run-server.cjs), building it first when it is missing or older than one of the workspace's
// files it was built from (dist/server/sources.json, written by the build: a stat of each, no walk of
// the folders). Development runs from source instead: `pnpm start:source`. CommonJS, so that a start
// with a current bundle never loads Node's ES module loader (run-server.cjs).
const { readFileSync, statSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..')

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

if (stale()) import('./build-server.mjs').then(() => require('./run-server.cjs'))
else require('./run-server.cjs')
