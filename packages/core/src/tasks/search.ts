import type { LabelId, StateId, TaskId, TeamId } from '../kernel/ids.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { TaskSortParam } from './order.ts'
import type { Priority } from './schemas.ts'
import type { TaskFilter } from './storage.ts'

/** The query of `tasks.list` and `tasks.search`, after validation. */
export interface ListTasksQuery {
  cursor?: string
  limit?: number
  teamId?: TeamId
  stateId?: StateId
  stateCategory?: string
  assigneeId?: string
  priority?: Priority
  cycleId?: string
  projectId?: string
  milestoneId?: string
  updatedSince?: string
  archived?: 'exclude' | 'only' | 'include'
  sort?: TaskSortParam
  q?: string
  labelId?: LabelId
  parentId?: string
  blocked?: boolean
  dueAfter?: string
  dueBefore?: string
  createdAfter?: string
  createdBefore?: string
  updatedBefore?: string
  fieldId?: string
  fieldValue?: string
  fieldSort?: string
}

/** Most words a search takes: each is one more condition on every row read. */
export const SEARCH_MAX_TOKENS = 8

/**
 * The words of a search, normalised the way stored text is compared: NFKC, lower-cased, split on
 * white space, each once. Storage matches each as a substring of the lower-cased title or description.
 */
export function searchTokens(q: string): string[] {
  const tokens = [...new Set(q.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean))]
  if (tokens.length > SEARCH_MAX_TOKENS) {
    throw new ProblemError('validation_failed', `Search for at most ${SEARCH_MAX_TOKENS} words at once.`, {
      errors: [{ pointer: '/query/q', message: `At most ${SEARCH_MAX_TOKENS} words` }],
    })
  }
  return tokens
}

/** The search and range parts of a task filter from the query of `tasks.list`. */
export function searchFilter(
  query: Pick<
    ListTasksQuery,
    | 'q'
    | 'labelId'
    | 'parentId'
    | 'blocked'
    | 'dueAfter'
    | 'dueBefore'
    | 'createdAfter'
    | 'createdBefore'
    | 'updatedBefore'
  >,
): Partial<TaskFilter> {
  const filter: Partial<TaskFilter> = {}
  if (query.q !== undefined) {
    const tokens = searchTokens(query.q)
    if (tokens.length) filter.search = tokens
  }
  if (query.labelId) filter.labelId = query.labelId
  if (query.parentId) filter.parentId = query.parentId === 'none' ? null : (query.parentId as TaskId)
  if (query.blocked !== undefined) filter.blocked = query.blocked
  if (query.dueAfter) filter.dueAfter = query.dueAfter
  if (query.dueBefore) filter.dueBefore = query.dueBefore
  const instant = (v: string | undefined) => (v ? new Date(v).toISOString() : undefined)
  if (query.createdAfter) filter.createdAfter = instant(query.createdAfter)!
  if (query.createdBefore) filter.createdBefore = instant(query.createdBefore)!
  if (query.updatedBefore) filter.updatedBefore = instant(query.updatedBefore)!
  return filter
}
