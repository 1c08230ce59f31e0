import type { LabelId, StateId, TaskId, TeamId } from '../../kernel/ids.ts'
import { fullTextTerms } from '../../kernel/text-search.ts'
import type { TaskSortParam } from '../order.ts'
import type { Priority } from '../schemas.ts'
import type { TaskFilter } from '../storage.ts'

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

/** Most words a search takes: each is one more term of the full-text query. */
export const SEARCH_MAX_TOKENS = 8

/**
 * The words of a search (kernel `fullTextTerms`): NFKC, lower-cased, split on anything that is not
 * a letter, digit or mark, each once. Storage matches each as a word prefix in the title or the
 * description through the full-text index (docs/task-search.md).
 */
export function searchTokens(q: string, pointer = '/query/q'): string[] {
  return fullTextTerms(q, SEARCH_MAX_TOKENS, pointer)
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
    // Blank is no filter; text without a single word (`%`) matches nothing.
    if (tokens.length || query.q.trim()) filter.search = tokens
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
