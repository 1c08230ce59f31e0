// Fails when `@workgraph/core` exports a name nothing outside core uses: every export is a promise
// to embedders, so a name no adapter, server, CLI, example, documented embedding, script, bench or
// test takes is either dead or an internal that core's own modules import directly.
//   npx tsx scripts/unused-exports.ts   (run by `pnpm check:deps`)
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

const root = join(import.meta.dirname, '..')
/** Each public entry point of core: its import specifier and its source. */
const ENTRIES = { '@workgraph/core': 'packages/core/src/index.ts' }
/** Where users of the surface live; core's own modules import each other by path. */
const USERS = [
  'README.md',
  'adapters',
  'packages/server',
  'packages/cli',
  'examples',
  'docs',
  'scripts',
  'bench',
  'test',
]
/**
 * Exports no one names but embedders need: TypeScript must name them in a declaration it infers
 * (TS2742 otherwise). Each with its reason.
 */
const NEEDED: Readonly<Record<string, string>> = {
  Id: 'every id type is `Id<Brand>`: a declaration that infers an id (a helper returning `newId(…)`) names it',
}
const SKIP = new Set(['node_modules', 'dist', '.workgraph'])
const CODE = /\.(ts|mts|tsx|js|mjs)$/

function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest)
  const names: string[] = []
  for (const statement of source.statements) {
    if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    )
      for (const element of statement.exportClause.elements) names.push(element.name.text)
    else if (
      ts.canHaveModifiers(statement) &&
      ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    )
      throw new Error(`${file}: declare exports in their modules and re-export them by name`)
  }
  return names
}

function* filesUnder(path: string): Generator<string> {
  if (statSync(join(root, path), { throwIfNoEntry: false })?.isFile()) {
    yield path
    return
  }
  let entries: Dirent[]
  try {
    entries = readdirSync(join(root, path), { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue
    const child = join(path, entry.name)
    if (entry.isDirectory()) yield* filesUnder(child)
    else if (CODE.test(entry.name) || entry.name.endsWith('.md')) yield child
  }
}

/** The code of a file: of a markdown page, its fenced TypeScript and JavaScript blocks. */
function codeOf(file: string, text: string): string {
  if (!file.endsWith('.md')) return text
  return [...text.matchAll(/```(?:ts|typescript|js|javascript|mjs)\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .join('\n')
}

/** Names a page promises in prose: `name` or `name(…)` in a paragraph that names `specifier`. */
function namesPromised(file: string, text: string, specifier: string): string[] {
  if (!file.endsWith('.md')) return []
  return text
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.includes(`\`${specifier}\``))
    .flatMap((paragraph) => [...paragraph.matchAll(/`([A-Za-z_$][\w$]*)[`(]/g)].map((m) => m[1]!))
}

/** The names `file` takes from `specifier`: named imports, re-exports, `ns.name` and `await import`. */
function namesTaken(file: string, specifier: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8')
  const taken = new Set(namesPromised(file, text, specifier))
  if (!text.includes(specifier)) return taken
  const source = ts.createSourceFile(file, codeOf(file, text), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const namespaces = new Set<string>()
  const visit = (node: ts.Node) => {
    const from =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : undefined
    if (from === specifier && ts.isImportDeclaration(node)) {
      const bindings = node.importClause?.namedBindings
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) taken.add((e.propertyName ?? e.name).text)
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text)
    }
    if (
      from === specifier &&
      ts.isExportDeclaration(node) &&
      node.exportClause &&
      ts.isNamedExports(node.exportClause)
    )
      for (const e of node.exportClause.elements) taken.add((e.propertyName ?? e.name).text)
    // `const { createEngine } = await import('@workgraph/core')`
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer?.getText(source).includes(`import('${specifier}')`)
    )
      for (const e of node.name.elements) taken.add(((e.propertyName ?? e.name) as ts.Identifier).text)
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      namespaces.has(node.expression.text)
    )
      taken.add(node.name.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return taken
}

const users = USERS.flatMap((path) => [...filesUnder(path)])
let unused = 0
for (const [specifier, entry] of Object.entries(ENTRIES)) {
  const used = new Set(users.flatMap((file) => [...namesTaken(file, specifier)]))
  const idle = exportedNames(entry).filter((name) => !used.has(name) && !(name in NEEDED))
  unused += idle.length
  if (idle.length > 0)
    console.error(`${specifier} (${entry}) exports names nothing imports:\n  ${idle.join('\n  ')}`)
}
if (unused > 0) {
  console.error('Use each from an adapter, an example or a documented embedding, or stop exporting it.')
  process.exit(1)
}
console.log(`Every export of ${Object.keys(ENTRIES).join(', ')} is used outside core.`)
