import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

// Part of `pnpm check:deps`: rooms of a readable size. A folder of core or of an adapter holding more
// than 25 files directly has a sub-feature that wants its own sub-folder (`tasks/relations/`); a
// source file over 400 lines has more than one responsibility. Tests are not counted.

const root = join(import.meta.dirname, '..')
const MAX_FILES = 25
const MAX_LINES = 400
const SKIP = new Set(['node_modules', 'dist', '.workgraph'])
/** Folders that grow by design: one file per migration. */
const GROWING = new Set(['migrations'])
const SOURCE = /\.(ts|mts|tsx|js|mjs|cjs)$/
const TEST = /\.test\.(ts|mts|tsx|js|mjs)$/

function* folders(dir: string): Generator<string> {
  yield dir
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && !SKIP.has(entry.name)) yield* folders(join(dir, entry.name))
}

const filesIn = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(dir, entry.name))

/** Each package's and adapter's `src/`: where the folder rule applies. */
const sourceRoots = ['packages', 'adapters'].flatMap((top) =>
  readdirSync(join(root, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, top, entry.name, 'src')),
)

const problems: string[] = []
for (const src of sourceRoots) {
  let all: string[]
  try {
    all = [...folders(src)]
  } catch {
    continue // a package without src/
  }
  for (const dir of all) {
    const name = relative(root, dir)
    if (name.split('/').some((part) => GROWING.has(part))) continue
    const count = filesIn(dir).length
    if (count > MAX_FILES)
      problems.push(`${name}/: ${count} files (at most ${MAX_FILES}); give a sub-feature its own folder`)
  }
}
for (const top of ['packages', 'adapters']) {
  for (const dir of folders(join(root, top))) {
    for (const file of filesIn(dir)) {
      const name = relative(root, file)
      if (!SOURCE.test(file) || TEST.test(file)) continue
      const lines = readFileSync(file, 'utf8').split('\n').length - 1
      if (lines > MAX_LINES)
        problems.push(`${name}: ${lines} lines (at most ${MAX_LINES}); split it by responsibility`)
    }
  }
}

if (problems.length > 0) {
  console.error(`Sizes: ${problems.length} over the limit\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(
  `Sizes: every source folder holds at most ${MAX_FILES} files, every source file at most ${MAX_LINES} lines`,
)
