// Runs the bundled server (dist/server/server.cjs, built by build-server.mjs) with the V8 code cache
// the build recorded beside it (code-cache.cjs); without one, or with one V8 rejects, it compiles as
// usual. Stack traces name the TypeScript sources: the source map is read when a stack is first
// printed (stack-source-maps.cjs). What `pnpm start` runs once the bundle is current (start.cjs)
// and the container's command. WORKGRAPH_RECORD_CODE_CACHE=1 records the cache at exit (the build).
// CommonJS, as the whole way from `node` to the bundle: an ES module entry costs a start Node's ES
// module loader.
const { dirname, join } = require('node:path')
const { pathToFileURL } = require('node:url')
const { runWithCodeCache } = require('./code-cache.cjs')
const { mapStacksLazily } = require('./stack-source-maps.cjs')

const bundle = join(__dirname, '../dist/server/server.cjs')
mapStacksLazily(`${pathToFileURL(dirname(bundle)).href}/`)
const server = runWithCodeCache(bundle, { record: process.env.WORKGRAPH_RECORD_CODE_CACHE === '1' })
// A failed start rejects: unhandled, it ends the process with its stack, as a top-level await did.
server.exports.main()
