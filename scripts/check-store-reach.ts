import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { analyseStoreReach, GROUPS, STORE_READS_TABLE, storeReadsTable, UNLAYERED } from './store-reach.ts'

// Part of `pnpm check:deps`: a resource group reads the repositories of its own group, the kernel
// and the groups below it, never those of a group above it (the order of `.dependency-cruiser.cjs`).
// Where a lower group needs what an upper group knows, it declares a hook the upper group fills.
// Also fails when docs/architecture.md's "Cross-group store reads" table is stale:
//   npx tsx --conditions=dev-source scripts/docs-tables.ts --write

/** A Markdown table's rows as trimmed cells, so the formatter's padding does not matter. */
const cells = (markdown: string) =>
  markdown
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim())
        .join('|'),
    )
    .join('\n')

const reach = analyseStoreReach()
const problems: string[] = reach.upward.map(
  (r) =>
    `${r.file}:${r.line}: ${r.group} reads \`${r.key}\`, a repository of ${r.owner}, which it may not (only its own, ` +
    `the kernel's and those of the groups below it); let ${r.owner} hand what it needs down through a hook`,
)

const root = join(import.meta.dirname, '..')
for (const entry of readdirSync(join(root, 'packages/core/src'), { withFileTypes: true })) {
  if (
    entry.isDirectory() &&
    entry.name !== 'kernel' &&
    !GROUPS.includes(entry.name) &&
    !UNLAYERED.includes(entry.name)
  )
    problems.push(
      `packages/core/src/${entry.name}/: a folder with no place in the layering; add it to GROUPS in .dependency-cruiser.cjs`,
    )
}

const page = readFileSync(join(root, STORE_READS_TABLE.file), 'utf8')
const start = page.indexOf(`<!-- ${STORE_READS_TABLE.marker}:start -->`)
const end = page.indexOf(`<!-- ${STORE_READS_TABLE.marker}:end -->`)
if (start < 0 || end < start)
  problems.push(`${STORE_READS_TABLE.file}: no ${STORE_READS_TABLE.marker} markers`)
else if (cells(page.slice(start, end)) !== cells(storeReadsTable(reach)))
  problems.push(
    `${STORE_READS_TABLE.file}: the cross-group store reads table is stale; run npx tsx --conditions=dev-source scripts/docs-tables.ts --write`,
  )

if (problems.length > 0) {
  console.error(`Store reach: ${problems.length} problem(s)\n${problems.join('\n')}`)
  process.exit(1)
}
console.log(`Store reach: ${reach.reads.length} cross-group reads, none upward`)
