// Bundles the reference server (packages/server/src/bin/server.ts and the workspace packages it
// imports, from their TypeScript sources, and their dependencies) into one ES module,
// dist/server/server.mjs, with a source map (scripts/bundle.mjs): one file to parse instead of some
// hundreds of modules resolved, read and compiled on the fly is most of a cold start.
// `pnpm start` runs it when the bundle is missing or older than a source; `pnpm build:server` by hand.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundle } from './bundle.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const started = performance.now()
await bundle({
  root,
  entryPoints: [{ in: 'packages/server/src/bin/server.ts', out: 'server' }],
  outdir: join(root, 'dist/server'),
})
console.log(`built dist/server/server.mjs in ${Math.round(performance.now() - started)} ms`)
