import { RowError } from '../row-error.ts'
import { JIRA_PRIORITIES, jiraCategory } from './jira-common.ts'
import { blankIssue, commentKeys, estimateOf, type ToolIssue } from './tool-issue.ts'

/** A row of a CSV whose header may repeat a column (`Labels`, `Labels`): every cell of each name. */
export type RepeatedRow = Record<string, string[]>

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/**
 * Jira's CSV dates (`09/Mar/31 2:15 PM`, the default "dd/MMM/yy h:mm a"), or ISO 8601 when the
 * site is set so; read as UTC, as the export does not say its zone.
 */
export function jiraDate(value: string, field: string): string {
  const m = /^(\d{1,2})\/([A-Za-z]{3})\/(\d{2}|\d{4})(?: (\d{1,2}):(\d{2})(?: ?([AP]M))?)?$/i.exec(value)
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase())
    let hour = Number(m[4] ?? 0) % 12
    if (m[6]?.toUpperCase() === 'PM') hour += 12
    else if (!m[6]) hour = Number(m[4] ?? 0)
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3])
    if (month >= 0)
      return new Date(Date.UTC(year, month, Number(m[1]), hour, Number(m[5] ?? 0))).toISOString()
  }
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RowError(`\`${value}\` is not a date.`, field)
  return new Date(time).toISOString()
}

const all = (row: RepeatedRow, column: string) => (row[column] ?? []).map((c) => c.trim()).filter(Boolean)
const one = (row: RepeatedRow, column: string) => all(row, column)[0] ?? ''

/** A link cell names an issue by id (`10042`) or by key (`ENG-42`): both are keys of the task. */
const ref = (value: string) => `jira:${value}`

/**
 * A row of Jira's "Export Excel CSV (all fields)": repeated columns (`Labels`, `Sprint`, `Comment`,
 * `Inward issue link (Blocks)`) are read whole; a comment cell is `date;author;body`.
 */
export function jiraCsvIssue(row: RepeatedRow): ToolIssue {
  const id = one(row, 'Issue id')
  const key = one(row, 'Issue key')
  if (!id || !key) throw new RowError('The `Issue id` or `Issue key` cell is empty.', 'Issue id')
  const priorityName = one(row, 'Priority')
  const priority = priorityName ? JIRA_PRIORITIES[priorityName.toLowerCase()] : 'none'
  const notes = priority ? [] : [`Jira's priority \`${priorityName}\` has no match; the task has none.`]
  const sprints = all(row, 'Sprint')
  if (sprints.length)
    notes.push(`Jira's CSV gives sprint \`${sprints.at(-1)}\` no dates; the task is in no cycle.`)
  const comments = commentKeys(
    `jira:${id}`,
    all(row, 'Comment').map((c) => {
      const [date, author, ...rest] = c.split(';')
      const body = rest.join(';').trim()
      // A comment cell without the `date;author;` head is the body alone.
      if (!rest.length || !date) return { author: null, createdAt: null, body: c }
      return { author: author?.trim() || null, createdAt: jiraDate(date.trim(), 'Comment'), body }
    }),
  )
  const due = one(row, 'Due date')
  const points = one(row, 'Custom field (Story Points)') || one(row, 'Custom field (Story point estimate)')
  return {
    ...blankIssue(`jira:${id}`, key, one(row, 'Summary')),
    aliases: [`jira:${key}`],
    kind: one(row, 'Issue Type').toLowerCase() === 'epic' ? 'project' : 'task',
    description: (row.Description ?? [])[0]?.trim() || null,
    state: {
      name: one(row, 'Status') || null,
      category: jiraCategory(one(row, 'Status Category') || null, one(row, 'Resolution') || null),
    },
    assignee: one(row, 'Assignee') || null,
    priority: priority ?? 'none',
    estimate: estimateOf(points, 'Custom field (Story Points)'),
    dueDate: due ? jiraDate(due, 'Due date').slice(0, 10) : null,
    labels: all(row, 'Labels'),
    // An epic parent becomes the task's project in the second pass; any other is its parent.
    parentKey: one(row, 'Parent id')
      ? ref(one(row, 'Parent id'))
      : one(row, 'Parent')
        ? ref(one(row, 'Parent'))
        : null,
    blockedBy: all(row, 'Inward issue link (Blocks)').map(ref),
    blocks: all(row, 'Outward issue link (Blocks)').map(ref),
    comments: comments.filter((c) => c.body !== ''),
    notes,
  }
}
