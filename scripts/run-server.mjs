// Runs the bundled server (dist/server/server.cjs, built by build-server.mjs) with the V8 code cache
// the build recorded beside it (code-cache.mjs); without one, or with one V8 rejects, it compiles as
// usual. Stack traces name the TypeScript sources: the source map is read when a stack is first
// printed (stack-source-maps.mjs). What `pnpm start` runs once the bundle is current (start.mjs)
// and the container's command. WORKGRAPH_RECORD_CODE_CACHE=1 records the cache at exit (the build).
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { runWithCodeCache } from './code-cache.mjs'
import { mapStacksLazily } from './stack-source-maps.mjs'

const bundle = join(dirname(fileURLToPath(import.meta.url)), '../dist/server/server.cjs')
mapStacksLazily(`${pathToFileURL(dirname(bundle)).href}/`)
const { exports } = runWithCodeCache(bundle, { record: process.env.WORKGRAPH_RECORD_CODE_CACHE === '1' })
await exports.main()
