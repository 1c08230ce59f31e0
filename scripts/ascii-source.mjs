// An esbuild plugin that keeps a bundle all ASCII. esbuild escapes the other characters of strings
// and templates, not those of regular expressions (rou3 has one, U+FFFC): a single one makes Node
// decode the whole 3 MB bundle as UTF-8 into a two-byte string at every start, several times the CPU
// of reading it as latin1 (scripts/code-cache.cjs). `\uXXXX` means the same character in a regular
// expression, a string or an identifier.
import { readFile } from 'node:fs/promises'

/** A character beyond ASCII, with the backslashes before it (an odd run escapes it). */
const NON_ASCII = /(\\*)([\u0080-\uffff])/g

/** Escapes, as `\uXXXX` (a surrogate pair as two), each character of a package's file beyond ASCII. */
export const asciiSource = {
  name: 'ascii-source',
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/.*\.[cm]?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      if (!/[\u0080-\uffff]/.test(source)) return undefined
      const contents = source.replace(NON_ASCII, (_, slashes, c) => {
        // `\é` is `é` itself: its escape takes that backslash's place.
        const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes
        return `${kept}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
      })
      return { contents, loader: 'js' }
    })
  },
}
