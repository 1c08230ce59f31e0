import type { Priority } from '../../tasks/schemas.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { RowError } from '../row-error.ts'
import { blankIssue, cell, dateOf, estimateOf, instantOf, list, type ToolIssue } from './tool-issue.ts'

/** Linear's priority names; the GraphQL API gives the same as 0…4. */
export const LINEAR_PRIORITIES: Record<string, Priority> = {
  'no priority': 'none',
  urgent: 'urgent',
  high: 'high',
  medium: 'medium',
  low: 'low',
}

/** Linear's CSV has the status name only; its type is read from the lifecycle columns and the name. */
function linearCategory(row: Record<string, string>): StateCategory {
  if (cell(row, 'Canceled')) return 'canceled'
  if (cell(row, 'Completed')) return 'completed'
  if (cell(row, 'Started')) return 'started'
  const name = cell(row, 'Status').toLowerCase()
  if (name === 'triage') return 'triage'
  if (name === 'backlog') return 'backlog'
  return 'unstarted'
}

/** The link back to a Linear issue, when the workspace URL is known. */
export const linearUrl = (sourceUrl: string | null, key: string) =>
  sourceUrl ? `${sourceUrl.replace(/\/+$/, '')}/issue/${key}` : null

/** A row of Linear's "Export CSV" (columns ID, Title, Description, Status, Assignee, …). */
export function linearCsvIssue(row: Record<string, string>, sourceUrl: string | null): ToolIssue {
  const key = cell(row, 'ID')
  if (!key) throw new RowError('The `ID` cell is empty.', 'ID')
  const priority = LINEAR_PRIORITIES[cell(row, 'Priority').toLowerCase() || 'no priority']
  if (!priority) throw new RowError(`Unknown priority \`${cell(row, 'Priority')}\`.`, 'Priority')
  const cycleNumber = cell(row, 'Cycle Number')
  const project = cell(row, 'Project')
  return {
    ...blankIssue(`linear:${key}`, key, cell(row, 'Title')),
    url: linearUrl(sourceUrl, key),
    description: cell(row, 'Description') || null,
    state: { name: cell(row, 'Status') || null, category: linearCategory(row) },
    assignee: cell(row, 'Assignee') || null,
    priority,
    estimate: estimateOf(cell(row, 'Estimate'), 'Estimate'),
    dueDate: dateOf(cell(row, 'Due Date'), 'Due Date'),
    labels: list(cell(row, 'Labels')),
    project: project ? { key: null, name: project, targetDate: null } : null,
    cycle:
      cycleNumber && cell(row, 'Cycle Start') && cell(row, 'Cycle End')
        ? {
            number: cycleNumber,
            name: cell(row, 'Cycle Name') || null,
            startsAt: instantOf(cell(row, 'Cycle Start'), 'Cycle Start'),
            endsAt: instantOf(cell(row, 'Cycle End'), 'Cycle End'),
          }
        : null,
    parentKey: cell(row, 'Parent issue') ? `linear:${cell(row, 'Parent issue')}` : null,
    blockedBy: list(cell(row, 'Blocked by')).map((k) => `linear:${k}`),
  }
}
