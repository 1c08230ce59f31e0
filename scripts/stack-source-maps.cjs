// Stack traces of the bundle point at the TypeScript sources, with the source maps read only when a
// stack is first printed. Node's own `--enable-source-maps` (process.setSourceMapsEnabled) reads and
// decodes every map (some 7 MB) while the bundle loads: a sixth of a start's CPU, for stacks most
// starts never print. CommonJS, as the rest of the start (run-server.cjs).
const { readFileSync } = require('node:fs')
const { SourceMap } = require('node:module')
const { fileURLToPath } = require('node:url')

/**
 * Formats stacks as V8 does, with each frame in a file under `dirUrl` (a file URL ending in `/`)
 * moved to its original source, line and column when the file's `.map` beside it knows it.
 */
function mapStacksLazily(dirUrl) {
  /** @type {Map<string, SourceMap | null>} each file's map, parsed on its first frame */
  const maps = new Map()
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null
      try {
        map = new SourceMap(JSON.parse(readFileSync(fileURLToPath(`${url}.map`), 'utf8')))
      } catch {
        // No map (or an unreadable one): the frame stays as V8 wrote it.
      }
      maps.set(url, map)
    }
    return maps.get(url)
  }
  const frame = (site) => {
    const text = String(site)
    const url = site.getFileName()
    if (!url?.startsWith(dirUrl)) return text
    const line = site.getLineNumber()
    const column = site.getColumnNumber()
    const entry = mapOf(url)?.findEntry(line - 1, column - 1)
    if (!entry?.originalSource) return text
    const source = fileURLToPath(new URL(entry.originalSource, url))
    return text.replace(
      `${url}:${line}:${column}`,
      `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`,
    )
  }
  Error.prepareStackTrace = (error, sites) => {
    let header
    try {
      header = Error.prototype.toString.call(error)
    } catch {
      header = 'Error'
    }
    return header + sites.map((site) => `\n    at ${frame(site)}`).join('')
  }
}

module.exports = { mapStacksLazily }
