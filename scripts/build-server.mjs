// Bundles the reference server (packages/server/src/bin/server.ts and the workspace packages it
// imports, from their TypeScript sources, and their dependencies) into one ES module,
// dist/server/server.mjs, with a source map (scripts/bundle.mjs): one file to parse instead of some
// hundreds of modules resolved, read and compiled on the fly is most of a cold start. Beside it,
// sources.json lists the workspace's files the bundle was built from: what `pnpm start` compares
// the bundle's age with (start.mjs). `pnpm start` runs this when the bundle is missing or older
// than one of them; `pnpm build:server` by hand.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundle } from './bundle.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outdir = join(root, 'dist/server')
const started = performance.now()
const sources = await bundle({
  root,
  entryPoints: [{ in: 'packages/server/src/bin/server.ts', out: 'server' }],
  outdir,
})
writeFileSync(join(outdir, 'sources.json'), `${JSON.stringify(sources, null, 1)}\n`)
console.log(`built dist/server/server.mjs in ${Math.round(performance.now() - started)} ms`)
