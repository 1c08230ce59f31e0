// Bundles the reference server (packages/server/src/main.ts and the workspace packages it imports,
// from their TypeScript sources, and their dependencies) into one CommonJS file,
// dist/server/server.cjs, with a source map (scripts/bundle.mjs), then records V8's code cache for
// it by starting it once and asking for `/v1/config` (run-server.cjs, code-cache.cjs): a start then
// reads the functions it needs compiled instead of parsing and compiling them. Beside it,
// sources.json lists the workspace's files the bundle was built from: what `pnpm start` compares
// the bundle's age with (start.cjs). `pnpm start` runs this when the bundle is missing or older
// than one of them; `pnpm build:server` by hand.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundle } from './bundle.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist/server')
const started = performance.now()
rmSync(outdir, { recursive: true, force: true })
const sources = await bundle({
  root,
  entryPoints: [{ in: 'packages/server/src/main.ts', out: 'server' }],
  outdir,
  format: 'cjs',
})
writeFileSync(join(outdir, 'sources.json'), `${JSON.stringify(sources, null, 1)}\n`)

/**
 * Starts the bundle on a new SQLite file in a temporary folder (no `.env` of the working directory)
 * and a free port, waits for its first `/v1/config`, and stops it: it writes its cache as it exits.
 */
async function recordCodeCache() {
  const dir = mkdtempSync(join(tmpdir(), 'workgraph-code-cache-'))
  const { BASE_URL: _origin, ...env } = process.env
  const child = spawn(process.execPath, [join(root, 'scripts/run-server.cjs')], {
    cwd: dir,
    env: {
      ...env,
      WORKGRAPH_RECORD_CODE_CACHE: '1',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: join(dir, 'db.sqlite'),
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    let printed = ''
    const api = await new Promise((resolve, reject) => {
      child.stdout.on('data', (data) => {
        printed += data
        const match = /API +(http:\/\/\S+\/v1)\n/.exec(printed)
        if (match) resolve(match[1])
      })
      exited.then((code) => reject(new Error(`the server exited with ${code} before it listened`)))
    })
    const response = await fetch(`${api}/config`)
    if (!response.ok) throw new Error(`GET /v1/config answered ${response.status}`)
    await response.arrayBuffer()
    child.kill('SIGTERM')
    const code = await exited
    if (code !== 0) throw new Error(`the server exited with ${code}`)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  }
}

try {
  await recordCodeCache()
} catch (error) {
  // A start without the cache compiles as before: slower, not wrong.
  console.warn(`built without a code cache: ${error.message}`)
}
console.log(`built dist/server/server.cjs in ${Math.round(performance.now() - started)} ms`)
