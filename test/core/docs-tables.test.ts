import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DOCS_TABLES } from '../../scripts/docs-tables.ts'

/** The table's rows as trimmed cells, so column padding added by the formatter does not matter. */
function cells(markdown: string): string[][] {
  return markdown
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    )
}

describe('generated docs tables', () => {
  for (const table of DOCS_TABLES) {
    it(`${table.file} (${table.marker}) matches the catalogue; regenerate with scripts/docs-tables.ts --write`, () => {
      const page = readFileSync(table.file, 'utf8')
      const start = page.indexOf(`<!-- ${table.marker}:start -->`)
      const end = page.indexOf(`<!-- ${table.marker}:end -->`)
      expect(start, 'markers present').toBeGreaterThanOrEqual(0)
      expect(cells(page.slice(start, end))).toEqual(cells(table.render()))
    })
  }
})
