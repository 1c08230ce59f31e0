import { readFileSync, writeFileSync } from 'node:fs'
import { CATALOGUE, EVENT_KINDS, OPERATIONS, PROBLEMS, TAGS } from '@workgraph/core'
import { SETTINGS } from '@workgraph/server'
import { type DocsTable, markdownTable, withTable } from './docs-table-format.ts'
import { formatMarkdown } from './format-markdown.ts'
import { STORE_READS_TABLE } from './store-reach.ts'

// Docs tables generated from core's catalogue, between `<!-- name:start -->` and `<!-- name:end -->`
// markers. test/core/docs-tables.test.ts fails when a page is out of date.
//   npx tsx --conditions=dev-source scripts/docs-tables.ts --write

/** The event kinds of every resource group (docs/events.md), in catalogue order. */
export const EVENT_KINDS_TABLE: DocsTable = {
  file: 'docs/events.md',
  marker: 'event-kinds',
  render: () =>
    markdownTable(
      ['kind', 'emitted by'],
      EVENT_KINDS.map((row) => [row.kinds.map((k) => `\`${k}\``).join(', '), row.emittedBy]),
    ),
}

/**
 * Every problem code (docs/api-conventions.md), by status, then by code, with the group that
 * declares it (the kernel's codes are those more than one group raises).
 */
export const PROBLEM_CODES_TABLE: DocsTable = {
  file: 'docs/api-conventions.md',
  marker: 'problem-codes',
  render: () => {
    const owners = new Map(
      CATALOGUE.groups.flatMap((g) => Object.keys(g.problems ?? {}).map((code) => [code, g.name] as const)),
    )
    return markdownTable(
      ['code', 'status', 'title', 'declared by'],
      Object.entries(PROBLEMS)
        .sort(([a, p], [b, q]) => p.status - q.status || a.localeCompare(b))
        .map(([code, p]) => [`\`${code}\``, String(p.status), p.title, owners.get(code) ?? 'kernel']),
    )
  },
}

/** Every environment setting of the reference server (docs/configuration.md). */
export const SETTINGS_TABLE: DocsTable = {
  file: 'docs/configuration.md',
  marker: 'settings',
  render: () =>
    markdownTable(
      ['variable', 'default', 'what it does'],
      SETTINGS.map((s) => [
        `\`${s.name}\``,
        s.default === undefined ? 'unset' : `\`${s.default}\``,
        s.description,
      ]),
    ),
}

/** Per tag, the reads that answer an ETag and the writes that honour `If-Match` (docs/api-conventions.md). */
export const CONDITIONAL_TABLE: DocsTable = {
  file: 'docs/api-conventions.md',
  marker: 'conditional',
  render: () =>
    markdownTable(
      ['group', 'reads with `ETag` / `If-None-Match`', 'writes with `If-Match`'],
      Object.keys(TAGS)
        .map((tag) => {
          const ops = OPERATIONS.filter((op) => op.tag === tag)
          const ids = (list: typeof ops) => list.map((op) => `\`${op.id}\``).join(', ')
          return [tag, ids(ops.filter((op) => op.etag)), ids(ops.filter((op) => op.precondition))]
        })
        .filter(([, reads, writes]) => reads || writes),
    ),
}

export const DOCS_TABLES: readonly DocsTable[] = [
  EVENT_KINDS_TABLE,
  PROBLEM_CODES_TABLE,
  CONDITIONAL_TABLE,
  SETTINGS_TABLE,
]

if (process.argv.includes('--write')) {
  // The store reads are read from the sources by the type checker: too slow for the docs test,
  // so `check-store-reach.ts` (in `pnpm check:deps`) fails when that table is stale.
  for (const table of [...DOCS_TABLES, STORE_READS_TABLE]) {
    writeFileSync(table.file, withTable(readFileSync(table.file, 'utf8'), table))
    console.log(`${table.file}: ${table.marker} written`)
  }
  formatMarkdown([...new Set([...DOCS_TABLES, STORE_READS_TABLE].map((t) => t.file))])
}
