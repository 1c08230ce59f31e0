import { CsvError, parse } from 'csv-parse/sync'
import { ProblemError } from '../kernel/problems.ts'

/** The columns a task CSV may have, by their normalised header (lowercase letters only). */
const COLUMNS = {
  title: 'title',
  description: 'description',
  state: 'state',
  status: 'state',
  assignee: 'assignee',
  assigneeemail: 'assignee',
  priority: 'priority',
  labels: 'labels',
  duedate: 'dueDate',
  due: 'dueDate',
  estimate: 'estimate',
} as const
export type CsvColumn = (typeof COLUMNS)[keyof typeof COLUMNS]
export type CsvTaskRow = Partial<Record<CsvColumn, string>>

/**
 * Parses a CSV of tasks (RFC 4180, with a header row) into rows keyed by column. csv-parse does the
 * quoting, embedded newlines and byte-order mark; a file it cannot read at all, a missing `title`
 * column or an unknown column is refused before anything is queued. Empty cells are left out.
 */
export function parseTaskCsv(content: string): CsvTaskRow[] {
  let records: string[][]
  try {
    records = parse(content, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true })
  } catch (error) {
    if (error instanceof CsvError) throw invalid(`The CSV cannot be read: ${error.message}`)
    throw error
  }
  const [header, ...rows] = records
  if (!header) throw invalid('The CSV is empty; it needs a header row.')
  const columns = header.map((h) => {
    const key = h.toLowerCase().replace(/[^a-z]/g, '') as keyof typeof COLUMNS
    if (!(key in COLUMNS))
      throw invalid(`Unknown column \`${h}\`; known: ${Object.keys(COLUMNS).join(', ')}.`)
    return COLUMNS[key]
  })
  if (!columns.includes('title')) throw invalid('The CSV needs a `title` column.')
  return rows.map((cells) => {
    const row: CsvTaskRow = {}
    cells.forEach((cell, i) => {
      const column = columns[i]
      if (column && cell !== '') row[column] = cell
    })
    return row
  })
}

function invalid(message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer: '/body/content', message }] })
}
