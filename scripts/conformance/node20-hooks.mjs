// The conformance CLI imports `globSync` from `fs` (Node 22+). The server scenarios never call it, so
// on Node 20 its `fs` import gets the real module plus a stub that says so if it ever is called.
const SHIM = `import * as fs from 'node:fs'
export * from 'node:fs'
export default fs
export function globSync() { throw new Error('fs.globSync needs Node 22') }`

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('@modelcontextprotocol/conformance')
  )
    return { url: `data:text/javascript,${encodeURIComponent(SHIM)}`, shortCircuit: true }
  return next(specifier, context)
}
