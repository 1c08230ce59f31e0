import { OPERATIONS } from '@workgraph/core'

// Prints the table of every operation for docs/operation-catalogue.md.
const rows = OPERATIONS.map((op) => [
  `\`${op.id}\``,
  op.method,
  `\`${op.path}\``,
  op.scope ? `\`${op.scope}\`` : '—',
  op.capability ? `\`${op.capability}\`` : '—',
])
const header = ['id', 'method', 'path', 'scope', 'capability']
console.log(`Generated from the code (${OPERATIONS.length} operations).\n`)
console.log(`| ${header.join(' | ')} |`)
console.log(`| ${header.map(() => '---').join(' | ')} |`)
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
