// The shape of a generated docs table and the two helpers every generator shares; free of
// `@workgraph/core`, so a generator that reads the sources (store-reach.ts) runs without its build.

export interface DocsTable {
  file: string
  marker: string
  render(): string
}

export function markdownTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n')
}

/** The page with the table between its markers replaced by a fresh rendering. */
export function withTable(page: string, table: DocsTable): string {
  const start = `<!-- ${table.marker}:start -->`
  const end = `<!-- ${table.marker}:end -->`
  const a = page.indexOf(start)
  const b = page.indexOf(end)
  if (a < 0 || b < a) throw new Error(`${table.file} lacks the ${start} … ${end} markers`)
  return `${page.slice(0, a + start.length)}\n${table.render()}\n${page.slice(b)}`
}
