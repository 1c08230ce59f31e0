import { bundle } from './bundle.mjs'
await bundle({ root: '/work/cold', entryPoints: [{ in: 'packages/server/src/main.ts', out: 'server' }], outdir: '/tmp/coldprof/cjs', format: 'cjs' })
