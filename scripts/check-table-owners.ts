import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

// Part of `pnpm check:deps`: in the Kysely adapter, a group's folder deletes and updates only rows of
// the tables it declares (the `…Tables` interfaces of `adapters/kysely/src/<group>/`). A delete that
// reaches another group's rows belongs in that group's part of the purge registry (`src/purge.ts`).
// A computed table name is allowed only in the shared helpers (the adapter root and `kernel/`),
// which take the table from the group that calls them.

const ROOT = 'adapters/kysely/src'
const SKIP = new Set(['migrations'])
const WRITES = new Set(['deleteFrom', 'updateTable'])
/** Folders of shared helpers, like the root: they may take a table's name from their caller. */
const SHARED = new Set(['kernel'])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const parse = (path: string) =>
  ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)

function visit(node: ts.Node, fn: (node: ts.Node) => void): void {
  fn(node)
  ts.forEachChild(node, (child) => visit(child, fn))
}

const groups = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !SKIP.has(e.name))
  .map((e) => e.name)

/** Table name → the folder whose `…Tables` interface declares it. */
const owners = new Map<string, string>()
for (const group of groups) {
  for (const path of sourceFiles(join(ROOT, group))) {
    visit(parse(path), (node) => {
      if (!ts.isInterfaceDeclaration(node) || !/Tables?$/.test(node.name.text)) return
      for (const member of node.members) {
        if (member.name && ts.isIdentifier(member.name)) owners.set(member.name.text, group)
      }
    })
  }
}

const problems: string[] = []

/** The shared purge helper (`purge-kinds.ts`): it deletes from the tables its `[table, column]` rows name. */
const ROWS_HELPER = 'deleteRows'

/** Each table a `deleteRows(...)` call names must be the calling folder's, and named, not computed. */
function checkRows(file: ts.SourceFile, path: string, group: string, call: ts.CallExpression): void {
  const where = `${relative('.', path)}:${file.getLineAndCharacterOfPosition(call.getStart()).line + 1}`
  for (const arg of call.arguments) {
    const table = ts.isArrayLiteralExpression(arg) ? arg.elements[0] : undefined
    if (!table || !ts.isStringLiteralLike(table)) {
      problems.push(`${where}: ${ROWS_HELPER} with a computed row; write each [table, column] inline`)
      continue
    }
    const owner = owners.get(table.text)
    if (owner === undefined)
      problems.push(`${where}: ${ROWS_HELPER}('${table.text}'): no folder declares this table`)
    else if (owner !== group)
      problems.push(
        `${where}: ${ROWS_HELPER}('${table.text}') deletes ${owner}'s rows; move it to ${owner}/purge.ts`,
      )
  }
}
for (const group of groups) {
  for (const path of sourceFiles(join(ROOT, group))) {
    const file = parse(path)
    visit(file, (node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === ROWS_HELPER
      ) {
        checkRows(file, path, group, node)
        return
      }
      if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return
      const method = node.expression.name.text
      if (!WRITES.has(method)) return
      const where = `${relative('.', path)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`
      const arg = node.arguments[0]
      if (!arg || !ts.isStringLiteralLike(arg)) {
        if (SHARED.has(group)) return
        problems.push(
          `${where}: ${method} with a computed table name; name the table, or use a shared helper (${ROOT}/ or kernel/)`,
        )
        return
      }
      const table = arg.text.split(/\s+as\s+/)[0] ?? arg.text
      const owner = owners.get(table)
      if (owner === undefined) problems.push(`${where}: ${method}('${table}'): no folder declares this table`)
      else if (owner !== group)
        problems.push(
          `${where}: ${method}('${table}') writes ${owner}'s table; move it to ${owner}/ (a cascade: a part in ${owner}/purge.ts)`,
        )
    })
  }
}

if (problems.length > 0) {
  console.error(`Table owners: ${problems.length} write(s) outside the owning folder\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(`Table owners: ${owners.size} tables, each written only by its own folder.`)
