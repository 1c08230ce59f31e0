import { RowError } from '../row-error.ts'
import { ASANA_ESTIMATES, ASANA_PRIORITIES, asanaUrl } from './asana-common.ts'
import { blankIssue, cell, dateOf, estimateOf, list, type ToolIssue } from './tool-issue.ts'

/** A task id of Asana's CSV (a gid) as a source key; a cell that is not one is kept out with a note. */
const gids = (value: string) => list(value).filter((g) => /^\d+$/.test(g))

/**
 * A row of Asana's CSV export (Task ID, Created At, Completed At, Name, Section/Column, Assignee,
 * Assignee Email, Due Date, Tags, Notes, Projects, Parent task, Blocked By (Dependencies), and a
 * column per custom field). The CSV has no comments; the JSON export does.
 */
export function asanaCsvIssue(row: Record<string, string>): ToolIssue {
  const gid = cell(row, 'Task ID')
  if (!gid) throw new RowError('The `Task ID` cell is empty.', 'Task ID')
  const notes: string[] = []
  const priorityCell = cell(row, 'Priority')
  const priority = priorityCell ? ASANA_PRIORITIES[priorityCell.toLowerCase()] : 'none'
  if (!priority) notes.push(`Asana's priority \`${priorityCell}\` has no match; the task has none.`)
  const estimateColumn = Object.keys(row).find((c) => ASANA_ESTIMATES.includes(c.toLowerCase()))
  const parent = cell(row, 'Parent task')
  if (parent && !/^\d+$/.test(parent))
    notes.push(`The parent task \`${parent}\` is named, not given by id; no parent set.`)
  const project = list(cell(row, 'Projects'))[0]
  return {
    ...blankIssue(`asana:${gid}`, `Asana ${gid}`, cell(row, 'Name')),
    url: asanaUrl(gid, null),
    description: cell(row, 'Notes') || null,
    // Completion is Asana's truth about done: a completed task goes to the first completed state, whatever its section.
    state: cell(row, 'Completed At')
      ? { name: null, category: 'completed' }
      : { name: cell(row, 'Section/Column') || null, category: 'unstarted' },
    assignee: cell(row, 'Assignee Email') || cell(row, 'Assignee') || null,
    priority: priority ?? 'none',
    estimate: estimateColumn ? estimateOf(cell(row, estimateColumn), estimateColumn) : null,
    dueDate: dateOf(cell(row, 'Due Date'), 'Due Date'),
    labels: list(cell(row, 'Tags')),
    project: project ? { key: null, name: project, targetDate: null } : null,
    parentKey: /^\d+$/.test(parent) ? `asana:${parent}` : null,
    blockedBy: gids(cell(row, 'Blocked By (Dependencies)')).map((g) => `asana:${g}`),
    notes,
  }
}
