// Runs a CommonJS bundle with V8's code cache: the functions compiled in a recorded run are read back
// from a file instead of being parsed and compiled again, most of what a start of the bundled server
// spent before any work of its own (docs/performance-log.md, "Cold start"). Node 20 has no compile
// cache of its own for modules (module.enableCompileCache arrived in 22.1), and vm.Script's cached
// data is for scripts, hence CommonJS. This file is CommonJS too: an ES module as the entry point
// costs a start Node's ES module loader (and the fs/promises, readline and more it loads).
const { readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs')
const { isAscii } = require('node:buffer')
const { createRequire } = require('node:module')
const { basename, dirname, join } = require('node:path')
const { pathToFileURL } = require('node:url')
const { Script } = require('node:vm')

/**
 * The cache of `file` as it is now. V8 checks only the source's length, its own version and its
 * flags: a rebuilt bundle (another size or modification time) must miss the last one's cache.
 */
function cacheFileOf(file) {
  const { size, mtimeMs } = statSync(file)
  return `${file}.${size}-${Math.round(mtimeMs)}.cache`
}

/**
 * The bundle's text. All ASCII (scripts/bundle.mjs escapes what esbuild leaves), it is read as
 * latin1, the same text: V8 keeps it as a one-byte string, where decoding it as UTF-8 costs several
 * times the CPU, and any other character would make it a two-byte string of twice the memory.
 */
function sourceOf(file) {
  const bytes = readFileSync(file)
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')
}

/**
 * Runs `file` (a CommonJS bundle) and returns its exports, with the code cache recorded for it when
 * there is one (`cache`: `accepted`, `rejected` by V8, as after an upgrade of Node, or `none`). With
 * `record`, the functions compiled by the time the process exits are written as its cache, in place
 * of any other.
 */
function runWithCodeCache(file, { record = false } = {}) {
  const cacheFile = cacheFileOf(file)
  let cachedData
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    // No cache: V8 compiles as usual.
  }
  // Node's own CommonJS wrapper, on a line of its own: lineOffset keeps the bundle's lines (and the
  // source map's) as they are. The name is a file URL, as stack-source-maps.cjs expects.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {\n${sourceOf(file)}\n})`
  const script = new Script(wrapped, { filename: pathToFileURL(file).href, lineOffset: -1, cachedData })
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  if (record)
    process.once('exit', () => {
      const stale = readdirSync(dirname(file)).filter(
        (f) => f.startsWith(`${basename(file)}.`) && f.endsWith('.cache'),
      )
      for (const f of stale) rmSync(join(dirname(file), f), { force: true })
      writeFileSync(cacheFile, script.createCachedData())
    })
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted'
  return { exports: module.exports, cache }
}

module.exports = { runWithCodeCache }
