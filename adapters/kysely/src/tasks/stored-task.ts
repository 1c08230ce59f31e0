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
