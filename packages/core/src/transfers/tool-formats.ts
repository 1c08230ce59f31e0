import type { Priority } from '../tasks/schemas.ts'
import type { StateCategory } from '../teams/schemas.ts'
import { RowError } from './import-rows.ts'
import type { ToolFormat } from './schemas.ts'

/**
 * One issue of another tool, read from its export: what the import maps onto a task. Each format
 * fills what its file carries (docs/importing.md has the table).
 */
export interface ToolIssue {
  /** Stable across exports of the same tool: the upsert key (`linear:ENG-42`, `github:1347`). */
  sourceKey: string
  /** What people call it in the tool (`ENG-42`, `acme/app#12`): the title of the link back. */
  key: string
  url: string | null
  title: string
  description: string | null
  state: { name: string | null; category: StateCategory }
  /** An email, or a name or login when the export has no email. */
  assignee: string | null
  priority: Priority
  estimate: number | null
  dueDate: string | null
  labels: string[]
  project: { name: string; targetDate: string | null } | null
  cycle: { number: string; name: string | null; startsAt: string; endsAt: string } | null
  /** Source keys of the parent and of the issues blocking this one, linked in the second pass. */
  parentKey: string | null
  blockedBy: string[]
  /** A pull request in GitHub's issue list: skipped. */
  skip: boolean
}

/** Column of Linear's "Export CSV" → the cell, trimmed; missing columns read as empty. */
const cell = (row: Record<string, string>, column: string) => (row[column] ?? '').trim()

const LINEAR_PRIORITIES: Record<string, Priority> = {
  'no priority': 'none',
  urgent: 'urgent',
  high: 'high',
  medium: 'medium',
  low: 'low',
}

/** A date cell as `YYYY-MM-DD`, or null; an unreadable one refuses the row. */
function dateOf(value: string, field: string): string | null {
  if (value === '') return null
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) return value
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RowError(`\`${value}\` is not a date.`, field)
  return new Date(time).toISOString().slice(0, 10)
}

function instantOf(value: string, field: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RowError(`\`${value}\` is not a date.`, field)
  return new Date(time).toISOString()
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

const keys = (value: string) =>
  value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)

/** A row of Linear's "Export CSV" (columns ID, Title, Description, Status, Assignee, …). */
export function linearIssue(row: Record<string, string>, sourceUrl: string | null): ToolIssue {
  const key = cell(row, 'ID')
  if (!key) throw new RowError('The `ID` cell is empty.', 'ID')
  const priority = LINEAR_PRIORITIES[cell(row, 'Priority').toLowerCase() || 'no priority']
  if (!priority) throw new RowError(`Unknown priority \`${cell(row, 'Priority')}\`.`, 'Priority')
  const estimateCell = cell(row, 'Estimate')
  const estimate = estimateCell === '' ? null : Number(estimateCell)
  if (estimate !== null && (!Number.isFinite(estimate) || estimate < 0 || estimate > 1000))
    throw new RowError('The estimate must be a number from 0 to 1000.', 'Estimate')
  const cycleNumber = cell(row, 'Cycle Number')
  const project = cell(row, 'Project')
  return {
    sourceKey: `linear:${key}`,
    key,
    url: sourceUrl ? `${sourceUrl.replace(/\/+$/, '')}/issue/${key}` : null,
    title: cell(row, 'Title'),
    description: cell(row, 'Description') || null,
    state: { name: cell(row, 'Status') || null, category: linearCategory(row) },
    assignee: cell(row, 'Assignee') || null,
    priority,
    estimate,
    dueDate: dateOf(cell(row, 'Due Date'), 'Due Date'),
    labels: keys(cell(row, 'Labels')),
    project: project ? { name: project, targetDate: null } : null,
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
    blockedBy: keys(cell(row, 'Blocked by')).map((k) => `linear:${k}`),
    skip: false,
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

type JsonObject = Record<string, unknown>
const object = (v: unknown): JsonObject | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : null

/** An item of GitHub's `GET /repos/{owner}/{repo}/issues` array; pull requests are skipped. */
export function githubIssue(item: unknown): ToolIssue {
  const issue = object(item)
  if (!issue) throw new RowError('The item is not a JSON object.')
  if (typeof issue.id !== 'number' && typeof issue.id !== 'string')
    throw new RowError('The issue has no `id`.', 'id')
  const url = text(issue.html_url)
  const repo = url ? /github\.com\/([^/]+\/[^/]+)\/(issues|pull)\//.exec(url)?.[1] : undefined
  const category: StateCategory =
    issue.state === 'closed' ? (issue.state_reason === 'not_planned' ? 'canceled' : 'completed') : 'unstarted'
  const milestone = object(issue.milestone)
  const milestoneTitle = milestone ? text(milestone.title) : null
  const labels: string[] = Array.isArray(issue.labels)
    ? issue.labels
        .map((l: unknown) => (typeof l === 'string' ? l : text(object(l)?.name)))
        .filter((l): l is string => Boolean(l))
    : []
  const assignee = object(issue.assignee)
  return {
    sourceKey: `github:${issue.id}`,
    key: repo ? `${repo}#${String(issue.number)}` : `#${String(issue.number)}`,
    url,
    title: typeof issue.title === 'string' ? issue.title.trim() : '',
    description: text(issue.body),
    state: { name: null, category },
    assignee: assignee ? (text(assignee.email) ?? text(assignee.login)) : null,
    priority: 'none',
    estimate: null,
    dueDate: null,
    labels,
    project: milestoneTitle
      ? { name: milestoneTitle, targetDate: text(milestone?.due_on)?.slice(0, 10) ?? null }
      : null,
    cycle: null,
    parentKey: null,
    blockedBy: [],
    skip: issue.pull_request !== undefined && issue.pull_request !== null,
  }
}

/** The issue of one source row of a tool format. */
export function toolIssue(format: ToolFormat, data: unknown, sourceUrl: string | null): ToolIssue {
  return format === 'linear_csv' ? linearIssue(data as Record<string, string>, sourceUrl) : githubIssue(data)
}

/** The header a Linear CSV must have. */
export const LINEAR_REQUIRED = ['ID', 'Title', 'Status'] as const
