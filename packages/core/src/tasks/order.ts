import type { Priority, Task } from './schemas.ts'

/** Sort keys of `tasks.list`; each sorts ties by id. `sort=rank` is the rank of the list the filters name. */
export type TaskSort =
  | 'createdAt'
  | 'updatedAt'
  | 'priority'
  | 'dueDate'
  | 'field'
  | 'boardRank'
  | 'projectRank'
  | 'cycleRank'

/** The `sort` parameter of `tasks.list`: a key, descending with a leading `-`. */
export const TASK_SORTS = [
  'createdAt',
  '-createdAt',
  'updatedAt',
  '-updatedAt',
  'priority',
  '-priority',
  'dueDate',
  '-dueDate',
  'rank',
] as const
export type TaskSortParam = (typeof TASK_SORTS)[number]

/** Priority order when sorting: most urgent first, `none` last (ascending). */
export const PRIORITY_ORDER: readonly Priority[] = ['urgent', 'high', 'medium', 'low', 'none']

/**
 * The value a task without a due date sorts by, so that undated tasks come last in both
 * directions: after every date ascending, before every date descending (then read last).
 */
export function undatedSortKey(direction: 'asc' | 'desc'): string {
  return direction === 'asc' ? '9999-12-31' : '0000-01-01'
}

/** The sort value of a task, exactly as storage orders by it: cursors carry this value. */
export function taskSortValue(task: Task, sort: TaskSort, direction: 'asc' | 'desc'): string | number {
  if (sort === 'priority') return PRIORITY_ORDER.indexOf(task.priority) + 1
  if (sort === 'dueDate') return task.dueDate ?? undatedSortKey(direction)
  if (sort === 'field') throw new Error('A field sort takes its key from fieldSortValue')
  if (sort.endsWith('Rank')) throw new Error('A rank sort takes its key from the ranks of the page')
  return task[sort as 'createdAt' | 'updatedAt']
}
