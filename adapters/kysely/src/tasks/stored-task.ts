import type {
  CycleId,
  MemberId,
  MilestoneId,
  OrgId,
  ProjectId,
  StateId,
  Task,
  TaskId,
  TeamId,
} from '@workgraph/core'
import { type ArrayRows, isArrayRows } from '../driver/raw-rows.ts'
import { iso, isoOrNull } from '../normalize.ts'

/**
 * A row of a page of tasks as the driver answers it (`runRaw`: snake_case columns, no plugin's
 * copy), with the team's key, the state's category and the blocked flag the page query joins.
 * Columns the mapping does not read (the ranks, `deleted_at`, a page's `section`) may be there too.
 */
export interface StoredTaskRow {
  id: string
  org_id: string
  team_id: string
  team_key: string
  number: number
  title: string
  description: string | null
  state_id: string
  state_category: string
  assignee_id: string | null
  creator_id: string
  priority: string
  estimate: number | string | null
  due_date: string | null
  start_date: string | null
  parent_id: string | null
  is_blocked: unknown
  created_at: Date | string
  updated_at: Date | string
  started_at: Date | string | null
  completed_at: Date | string | null
  canceled_at: Date | string | null
  archived_at: Date | string | null
  cycle_id: string | null
  project_id: string | null
  milestone_id: string | null
}

/**
 * The `Task` of a list's row in one object literal, labels and fields empty for the page's extras
 * to fill (`withPageExtras`): a page's rows were built twice (camel-cased by the plugin, then
 * mapped to a `Task`), and the two properties added afterwards moved every task to a new shape.
 * The keys are in the order `toTask` writes them, so the answer's text is the same.
 */
export function taskFromStored(r: StoredTaskRow): Task {
  return {
    id: r.id as TaskId,
    orgId: r.org_id as OrgId,
    teamId: r.team_id as TeamId,
    key: `${r.team_key}-${r.number}`,
    number: r.number,
    title: r.title,
    description: r.description,
    stateId: r.state_id as StateId,
    stateCategory: r.state_category as Task['stateCategory'],
    assigneeId: r.assignee_id as MemberId | null,
    creatorId: r.creator_id as MemberId,
    priority: r.priority as Task['priority'],
    estimate: r.estimate === null ? null : Number(r.estimate),
    dueDate: r.due_date,
    startDate: r.start_date,
    parentId: r.parent_id as TaskId | null,
    isBlocked: Boolean(Number(r.is_blocked)),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    startedAt: isoOrNull(r.started_at),
    completedAt: isoOrNull(r.completed_at),
    canceledAt: isoOrNull(r.canceled_at),
    archivedAt: isoOrNull(r.archived_at),
    cycleId: r.cycle_id as CycleId | null,
    projectId: r.project_id as ProjectId | null,
    milestoneId: r.milestone_id as MilestoneId | null,
    labelIds: [],
    fields: {},
  }
}

/** Where each column `taskFromArray` reads sits in a row of `ArrayRows`. */
type Places = { readonly [K in keyof StoredTaskRow]: number }
const placesByColumns = new WeakMap<readonly string[], Places>()

function placesOf(columns: readonly string[]): Places {
  let places = placesByColumns.get(columns)
  if (!places) {
    const at: Record<string, number> = {}
    // A name twice keeps its last place, as the driver's object row keeps the last value.
    columns.forEach((c, i) => {
      at[c] = i
    })
    for (const c of STORED_COLUMNS)
      if (at[c] === undefined) throw new Error(`a page of tasks without the column ${c}`)
    places = at as unknown as Places
    placesByColumns.set(columns, places)
  }
  return places
}

/** `taskFromStored` for a row of `ArrayRows` (the same literal, the columns by place). */
function taskFromArray(r: readonly unknown[], p: Places): Task {
  const estimate = r[p.estimate] as number | string | null
  return {
    id: r[p.id] as TaskId,
    orgId: r[p.org_id] as OrgId,
    teamId: r[p.team_id] as TeamId,
    key: `${r[p.team_key]}-${r[p.number]}`,
    number: r[p.number] as number,
    title: r[p.title] as string,
    description: r[p.description] as string | null,
    stateId: r[p.state_id] as StateId,
    stateCategory: r[p.state_category] as Task['stateCategory'],
    assigneeId: r[p.assignee_id] as MemberId | null,
    creatorId: r[p.creator_id] as MemberId,
    priority: r[p.priority] as Task['priority'],
    estimate: estimate === null ? null : Number(estimate),
    dueDate: r[p.due_date] as string | null,
    startDate: r[p.start_date] as string | null,
    parentId: r[p.parent_id] as TaskId | null,
    isBlocked: Boolean(Number(r[p.is_blocked])),
    createdAt: iso(r[p.created_at] as Date | string),
    updatedAt: iso(r[p.updated_at] as Date | string),
    startedAt: isoOrNull(r[p.started_at] as Date | string | null),
    completedAt: isoOrNull(r[p.completed_at] as Date | string | null),
    canceledAt: isoOrNull(r[p.canceled_at] as Date | string | null),
    archivedAt: isoOrNull(r[p.archived_at] as Date | string | null),
    cycleId: r[p.cycle_id] as CycleId | null,
    projectId: r[p.project_id] as ProjectId | null,
    milestoneId: r[p.milestone_id] as MilestoneId | null,
    labelIds: [],
    fields: {},
  }
}

/** The columns both mappings read. */
const STORED_COLUMNS: readonly (keyof StoredTaskRow)[] = [
  'id',
  'org_id',
  'team_id',
  'team_key',
  'number',
  'title',
  'description',
  'state_id',
  'state_category',
  'assignee_id',
  'creator_id',
  'priority',
  'estimate',
  'due_date',
  'start_date',
  'parent_id',
  'is_blocked',
  'created_at',
  'updated_at',
  'started_at',
  'completed_at',
  'canceled_at',
  'archived_at',
  'cycle_id',
  'project_id',
  'milestone_id',
]

/** A page's tasks from the rows of its query, whichever form the driver answered them in. */
export function tasksFromStored(rows: ArrayRows | StoredTaskRow[]): Task[] {
  const tasks = new Array<Task>(rows.length)
  if (isArrayRows(rows)) {
    const places = placesOf(rows.columns)
    for (let i = 0; i < rows.length; i++) tasks[i] = taskFromArray(rows[i]!, places)
  } else for (let i = 0; i < rows.length; i++) tasks[i] = taskFromStored(rows[i]!)
  return tasks
}
