import { ProblemError } from '../kernel/problems.ts'
import { csvShape } from './sources.ts'

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

const normalised = (header: string) => header.toLowerCase().replace(/[^a-z]/g, '') as keyof typeof COLUMNS

/**
 * Checks a CSV of tasks (RFC 4180, with a header row) and counts its rows. csv-parse does the
 * quoting, embedded newlines and byte-order mark; a file it cannot read at all, a missing `title`
 * column or an unknown column is refused before anything is queued.
 */
export function checkTaskCsv(content: string): number {
  const { header, rows } = csvShape(content)
  const columns = header.map((h) => {
    const key = normalised(h)
    if (!(key in COLUMNS))
      throw invalid(`Unknown column \`${h}\`; known: ${Object.keys(COLUMNS).join(', ')}.`)
    return COLUMNS[key]
  })
  if (!columns.includes('title')) throw invalid('The CSV needs a `title` column.')
  return rows
}

/** One streamed row (cells by header) as task fields; empty cells are left out. */
export function taskCsvRow(cells: Record<string, string>): CsvTaskRow {
  const row: CsvTaskRow = {}
  for (const [header, cell] of Object.entries(cells)) {
    const column = COLUMNS[normalised(header)]
    const value = cell.trim()
    if (column && value !== '') row[column] = value
  }
  return row
}

function invalid(message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer: '/body/content', message }] })
}
