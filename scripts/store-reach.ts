import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { type DocsTable, markdownTable } from './docs-table-format.ts'

// Which repositories of the one `Store` each resource group reads. `Store` is merged from every
// group's `declare module '../kernel/storage.ts'` block, so TypeScript lets any group reach any
// repository; dependency-cruiser sees imports, not property reads. This analysis asks the type
// checker which `Store` member each read resolves to (`ctx.store.x`, `store.x`, `tx.x`,
// `const { x } = store`, `store['x']`), maps the member's declaring file and the reading file to
// their groups (the first folder under packages/core/src, so sub-folders move freely) and judges
// the read against the layering in `.dependency-cruiser.cjs`.

const root = join(import.meta.dirname, '..')
const CORE = 'packages/core/src'

/** Core's resource groups, lowest first: read from `.dependency-cruiser.cjs`, the one place they are listed. */
export const GROUPS: readonly string[] = (() => {
  const config = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8')
  const list = /const GROUPS = \[([\s\S]*?)\]/.exec(config)?.[1]
  if (!list) throw new Error('.dependency-cruiser.cjs: no `const GROUPS = [...]`')
  return [...list.matchAll(/'([a-z-]+)'/g)].map((m) => m[1] as string)
})()

/** The kernel's repositories (events, locks, secrets, …) serve every group; the kernel reads no group's. */
const KERNEL = 'kernel'
/** Folders outside the layering, as in `.dependency-cruiser.cjs`: they read any group's repositories, and only they read theirs. */
export const UNLAYERED: readonly string[] = ['admin']

export interface StoreRead {
  /** Path from the repository root, and the line of the read. */
  file: string
  line: number
  /** The group of the reading file, and the `Store` key it reads. */
  group: string
  key: string
  /** The group whose storage file declares the key. */
  owner: string
}

export interface StoreReach {
  /** Every read of a repository of another group (the kernel's left out). */
  reads: StoreRead[]
  /** The reads a group may not make: a key of a group above it, or of an unlayered folder. */
  upward: StoreRead[]
}

/** The group of a file under packages/core/src: its first folder, or null for the composition files at the root. */
function groupOf(file: string): string | null {
  const parts = relative(join(root, CORE), file).split(sep)
  return parts.length > 1 ? (parts[0] as string) : null
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/**
 * Whether `group` may read the repositories `owner` declares: its own and the kernel's always; a
 * layered group those of the groups before it; a folder outside the layering (`UNLAYERED`) any
 * layered group's. A folder in neither list may read no other group's: it has no place yet.
 */
export function mayRead(group: string, owner: string): boolean {
  if (owner === group || owner === KERNEL) return true
  const declared = GROUPS.indexOf(owner)
  if (declared < 0) return false
  if (UNLAYERED.includes(group)) return true
  const reader = GROUPS.indexOf(group)
  return reader >= 0 && declared < reader
}

/** Every cross-group `Store` read in core, found by the type checker. */
export function analyseStoreReach(): StoreReach {
  const config = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const files = sourceFiles(join(root, CORE))
  const program = ts.createProgram(files, { ...options, noEmit: true })
  const checker = program.getTypeChecker()

  const storageFile = program.getSourceFile(join(root, CORE, 'kernel/storage.ts'))
  const storeDeclaration = storageFile?.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Store',
  )
  if (!storeDeclaration) throw new Error(`${CORE}/kernel/storage.ts declares no interface Store`)
  const store = checker.getDeclaredTypeOfSymbol(
    checker.getSymbolAtLocation(storeDeclaration.name) as ts.Symbol,
  )

  /** Each `Store` member's declaration → the group of the file declaring it. */
  const owners = new Map<ts.Node, string>()
  for (const member of store.getProperties()) {
    for (const declaration of member.declarations ?? []) {
      owners.set(declaration, groupOf(declaration.getSourceFile().fileName) ?? KERNEL)
    }
  }
  /** Only a name some group gives a repository can be a read: the checker is asked about those alone. */
  const keys = new Set(store.getProperties().map((member) => member.name))
  const ownerOf = (symbol: ts.Symbol | undefined): string | undefined => {
    for (const declaration of symbol?.declarations ?? []) {
      const owner = owners.get(declaration)
      if (owner !== undefined) return owner
    }
    return undefined
  }

  const reads: StoreRead[] = []
  for (const path of files) {
    const group = groupOf(path)
    if (group === null) continue
    const source = program.getSourceFile(path) as ts.SourceFile
    const record = (node: ts.Node, key: string, symbolOf: () => ts.Symbol | undefined) => {
      if (!keys.has(key)) return
      const owner = ownerOf(symbolOf())
      if (owner === undefined || owner === group || owner === KERNEL) return
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1
      reads.push({ file: relative(root, path), line, group, key, owner })
    }
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        record(node.name, node.name.text, () => checker.getSymbolAtLocation(node.name))
      } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
        const key = node.argumentExpression.text
        record(node, key, () => checker.getTypeAtLocation(node.expression).getProperty(key))
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const name = node.propertyName ?? node.name
        if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) {
          record(node, name.text, () => checker.getTypeAtLocation(node.parent).getProperty(name.text))
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  reads.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
  return { reads, upward: reads.filter((r) => !mayRead(r.group, r.owner)) }
}

/** Per group, the repositories of other groups it reads, grouped by the group that declares them. */
export function storeReadsTable(reach: StoreReach): string {
  const rank = (group: string) => {
    const i = GROUPS.indexOf(group)
    return i < 0 ? GROUPS.length : i
  }
  const byGroup = new Map<string, Map<string, Set<string>>>()
  for (const read of reach.reads) {
    const owners = byGroup.get(read.group) ?? new Map<string, Set<string>>()
    byGroup.set(read.group, owners)
    const keys = owners.get(read.owner) ?? new Set<string>()
    owners.set(read.owner, keys)
    keys.add(read.key)
  }
  const groups = [...byGroup.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  return markdownTable(
    ['group', 'reads the repositories of'],
    groups.map((group) => {
      const owners = byGroup.get(group) as Map<string, Set<string>>
      const cell = [...owners.keys()]
        .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
        .map(
          (owner) =>
            `${owner} (${[...(owners.get(owner) as Set<string>)]
              .sort()
              .map((k) => `\`${k}\``)
              .join(', ')})`,
        )
        .join('; ')
      return [`\`${group}\``, cell]
    }),
  )
}

let analysed: StoreReach | undefined

/** docs/architecture.md's "Cross-group store reads", kept true by `check-store-reach.ts`. */
export const STORE_READS_TABLE: DocsTable = {
  file: 'docs/architecture.md',
  marker: 'store-reads',
  render: () => {
    analysed ??= analyseStoreReach()
    return storeReadsTable(analysed)
  },
}
