import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { expect, it } from 'vitest'
import { COMMON_PROBLEMS } from '../../packages/core/src/kernel/problems/codes.ts'

// The kernel's problem table holds the codes more than one resource group raises and the
// transport's own (raised in the kernel or outside core's groups: the h3, MCP and Kysely adapters'
// shared files, the server). A code one group alone raises is declared in that group's `problems.ts`.
// "Raises" is a `new ProblemError('code', …)` in the group's folder of core or of an adapter.

const root = join(import.meta.dirname, '..', '..')
const CORE = 'packages/core/src'
const SKIP = new Set(['node_modules', 'dist', 'migrations'])
const GROUPS = new Set(
  readdirSync(join(root, CORE), { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'kernel')
    .map((e) => e.name),
)

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** The group a file raises for: its group folder in core or an adapter (`tools/<group>/` in MCP), else the transport. */
function raiserOf(path: string): string {
  const folder =
    new RegExp(`^${CORE}/([^/]+)/`).exec(path)?.[1] ??
    /^adapters\/[^/]+\/src\/(?:tools\/)?([^/]+)\//.exec(path)?.[1]
  return folder !== undefined && GROUPS.has(folder) ? folder : 'transport'
}

/** The codes a literal or a choice between literals names. */
function codesIn(node: ts.Expression): string[] {
  if (ts.isStringLiteralLike(node)) return [node.text]
  if (ts.isConditionalExpression(node)) return [...codesIn(node.whenTrue), ...codesIn(node.whenFalse)]
  if (ts.isParenthesizedExpression(node)) return codesIn(node.expression)
  return []
}

/** Code → the groups (or `transport`) that raise it. */
function raisers(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const path of [...sourceFiles('packages'), ...sourceFiles('adapters')]) {
    const raiser = raiserOf(path)
    const source = ts.createSourceFile(
      path,
      readFileSync(join(root, path), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    )
    const visit = (node: ts.Node): void => {
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'ProblemError'
      ) {
        const first = node.arguments?.[0]
        for (const code of first ? codesIn(first) : []) {
          const set = found.get(code) ?? new Set<string>()
          found.set(code, set.add(raiser))
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

it("keeps in the kernel's table only the codes several groups or the transport raise", () => {
  const found = raisers()
  const single = Object.keys(COMMON_PROBLEMS).flatMap((code) => {
    const by = [...(found.get(code) ?? [])]
    return by.length === 1 && by[0] !== 'transport'
      ? [`${code}: only ${by[0]} raises it; declare it in ${CORE}/${by[0]}/problems.ts`]
      : []
  })
  expect(single).toEqual([])
})

it('sees the codes groups raise (the scan finds what it judges)', () => {
  const found = raisers()
  expect([...(found.get('has_children') ?? [])]).toEqual(['tasks'])
  expect(found.get('rule_violated')?.size).toBeGreaterThan(1)
})
