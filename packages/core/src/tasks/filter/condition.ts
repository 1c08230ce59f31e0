import type { CustomFieldType } from '../../fields/schemas.ts'
import type { LabelId, TaskId } from '../../kernel/ids.ts'
import type { StateCategory } from '../../teams/schemas.ts'

/** The columns of a task a filter compares directly. */
export const TASK_FILTER_COLUMNS = [
  'teamId',
  'stateId',
  'assigneeId',
  'creatorId',
  'priority',
  'estimate',
  'dueDate',
  'startDate',
  'createdAt',
  'updatedAt',
  'startedAt',
  'completedAt',
  'canceledAt',
  'cycleId',
  'projectId',
  'milestoneId',
  'parentId',
] as const
export type TaskFilterColumn = (typeof TASK_FILTER_COLUMNS)[number]

/** What storage compares: `eq`/`in` with values, `gt`…`lte` with one, `null` for a missing value. */
export type ConditionOp = 'eq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'null'
export type ConditionValue = string | number

/**
 * A task filter as storage runs it (built by `resolveTaskFilter` from the API's `TaskFilter`):
 * negations are explicit `not`s, relative times are resolved, custom fields carry their type.
 * Every leaf is two-valued (a missing value makes a comparison false, never unknown), so `not` is
 * the exact complement.
 */
export type TaskCondition =
  | { kind: 'and'; of: TaskCondition[] }
  | { kind: 'or'; of: TaskCondition[] }
  | { kind: 'not'; of: TaskCondition }
  | {
      kind: 'column'
      column: TaskFilterColumn
      op: ConditionOp
      value: ConditionValue | ConditionValue[] | null
    }
  | { kind: 'stateCategory'; categories: StateCategory[] }
  /** `any`: carries one of the labels; `all`: every one; `none` with no ids: carries no label. */
  | { kind: 'labels'; op: 'any' | 'all' | 'none'; ids: LabelId[] }
  | {
      kind: 'field'
      field: { id: string; type: CustomFieldType }
      op: ConditionOp
      value: ConditionValue | ConditionValue[] | null
    }
  /** Every term begins a word of the title or the description (the full-text index); none: nothing. */
  | { kind: 'text'; terms: string[] }
  /** An open task the reader can view blocks it. */
  | { kind: 'blocked' }
  | { kind: 'ids'; ids: TaskId[] }
