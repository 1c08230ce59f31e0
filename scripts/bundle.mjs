// Bundles entry points of the workspace (from their TypeScript sources, with the workspace packages
// and dependencies they import) into ES modules with source maps: one file to parse instead of some
// hundreds of modules resolved, read and compiled on the fly. Native addons stay external and load
// from node_modules. Used by build-server.mjs (the reference server) and the tests' child processes.
import { readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { asciiSource } from './ascii-source.mjs'

/** Native addons (and pg's optional one) stay out of the bundle; Node loads them from node_modules. */
const NATIVE = /^(better-sqlite3|pg-native)$/

/**
 * What a server loads only when configured (SMTP, Redis, S3, a Postgres URL): in an ES module build
 * they are chunks of their own, but CommonJS has no chunks, and in the one file they were two fifths
 * of the bytes every start reads. They stay in node_modules and load from there when configured.
 */
const CONFIGURED = /^(nodemailer|ioredis|pg|@aws-sdk\/client-s3|@aws-sdk\/lib-storage)$/

/**
 * Builds `entryPoints` (paths relative to `root`, or `{ in, out }`) into `outdir`, one `{name}.mjs`
 * each, sharing chunks; with `format: 'cjs'`, one self-contained `{name}.cjs` each. Returns the
 * workspace's files it read (paths relative to `root`).
 */
export async function bundle({ root, entryPoints, outdir, format = 'esm' }) {
  // Chunk names carry a hash of their content: the last build's would stay beside the new ones.
  await rm(join(outdir, 'chunks'), { recursive: true, force: true })
  const esm = format === 'esm'
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': esm ? '.mjs' : '.cjs' },
    // What loads only when configured (nodemailer, ioredis, pg) goes to chunks of its own. CommonJS
    // has no chunks: there it stays in the one file, its modules evaluated on first import.
    splitting: esm,
    bundle: true,
    platform: 'node',
    format,
    // CommonJS runs through vm.Script (scripts/code-cache.cjs), where an import() would need
    // vm's experimental module loader: esbuild turns the ones left (Node's own modules) into require().
    ...(!esm && { supported: { 'dynamic-import': false } }),
    target: 'node20',
    conditions: ['dev-source'],
    sourcemap: 'linked',
    // A quarter fewer bytes for V8 to parse at every start; names stay (stacks and logs keep them)
    // and the source maps give stacks their lines back (scripts/stack-source-maps.cjs).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    metafile: true,
    // Bundled CommonJS code calls require(); in an ES module it needs one.
    ...(esm && {
      banner: {
        js: "import { createRequire as __workgraphRequire } from 'node:module'\nconst require = __workgraphRequire(import.meta.url)",
      },
    }),
    plugins: [
      // The CommonJS bundle is read as latin1 when it is all ASCII (scripts/code-cache.cjs).
      ...(esm ? [] : [asciiSource]),
      {
        // `createRequire(import.meta.url)` in the sources resolves packages (and files such as the API
        // reference's script) from the source file's folder, where pnpm installed them; in the bundle
        // it would resolve from dist/. Give each file its own URL back.
        name: 'source-urls',
        setup(b) {
          b.onLoad({ filter: /\/(packages|adapters)\/[^/]+\/src\/.*\.ts$/ }, async (args) => {
            const source = await readFile(args.path, 'utf8')
            if (!source.includes('import.meta.url')) return undefined
            const url = JSON.stringify(pathToFileURL(args.path).href)
            return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' }
          })
        },
      },
      {
        name: 'native-external',
        setup(b) {
          b.onResolve(
            { filter: esm ? NATIVE : new RegExp(`${NATIVE.source}|${CONFIGURED.source}`) },
            (args) => {
              try {
                // The absolute path of the copy the importing package would load: the bundle is built
                // on the machine that runs it (after install), and chunks sit in different folders.
                return { path: createRequire(args.importer).resolve(args.path), external: true }
              } catch {
                return { path: args.path, external: true }
              }
            },
          )
        },
      },
    ],
  })
  return Object.keys(metafile.inputs).filter((input) => !input.includes('node_modules/'))
}
