import type { MemberId, OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../../kernel/pagination.ts'
import { type TaskSort, type TaskSortParam, taskSortValue } from '../../tasks/order.ts'
import type { Priority, Task } from '../../tasks/schemas.ts'
import type { TaskFilter } from '../../tasks/storage.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { fanOut } from '../fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from '../paging.ts'
import { type HubTaskFilterInput, resolveHubFilter, usersByEmail } from './filter.ts'

/** How a task relates to the caller in `hub.tasks`; `any`: every task they may view. */
export const HUB_TASK_RELATIONS = ['assigned', 'created', 'followed', 'any'] as const
export type HubTaskRelation = (typeof HUB_TASK_RELATIONS)[number]

/** `open`: not completed or canceled; `closed`: completed or canceled; `all`. */
export const HUB_TASK_STATUSES = ['open', 'closed', 'all'] as const
export type HubTaskStatus = (typeof HUB_TASK_STATUSES)[number]

export const OPEN_CATEGORIES: StateCategory[] = ['triage', 'backlog', 'unstarted', 'started']
const CLOSED_CATEGORIES: StateCategory[] = ['completed', 'canceled']

export interface HubTasksQuery {
  relation?: HubTaskRelation
  status?: HubTaskStatus
  priority?: Priority
  dueBefore?: string
  dueAfter?: string
  sort?: Exclude<TaskSortParam, 'field'>
  orgId?: string
  cursor?: string
  limit?: number
  /** `hub.tasks.query`'s composed filter, resolved in each workspace (filter.ts). */
  filter?: HubTaskFilterInput
}

/** Per workspace: the sort value and id of the last task returned. */
interface TaskPosition {
  v: string | number
  i: string
}

const isPosition = (v: unknown): v is TaskPosition =>
  typeof v === 'object' &&
  v !== null &&
  (typeof (v as TaskPosition).v === 'string' || typeof (v as TaskPosition).v === 'number') &&
  typeof (v as TaskPosition).i === 'string'

/** The filter of one relation for one member, as `tasks.list` storage takes it. */
export function relationFilter(relation: HubTaskRelation, me: MemberId): Partial<TaskFilter> {
  if (relation === 'any') return {}
  if (relation === 'created') return { creatorId: me }
  if (relation === 'followed') return { subscriberId: me }
  return { assigneeId: me }
}

/**
 * Tasks assigned to, created by or followed by the caller in every workspace: in each, the
 * workspace's own task list with the caller's read scope there, merged by the sort (ties by org,
 * then id, as each workspace orders them).
 */
export async function hubTasks(ctx: OperationContext, query: HubTasksQuery) {
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const relation = query.relation ?? 'assigned'
  const status = query.status ?? 'open'
  const param = query.sort ?? 'dueDate'
  const direction = param.startsWith('-') ? 'desc' : 'asc'
  const sort = param.replace(/^-/, '') as TaskSort
  const shared: Omit<TaskFilter, 'archived'> = {
    ...(status === 'open' ? { stateCategory: OPEN_CATEGORIES } : {}),
    ...(status === 'closed' ? { stateCategory: CLOSED_CATEGORIES } : {}),
    ...(query.priority ? { priority: query.priority } : {}),
    ...(query.dueAfter ? { dueAfter: query.dueAfter } : {}),
    ...(query.dueBefore ? { dueBefore: query.dueBefore } : {}),
  }
  const scope = [
    'hub.tasks',
    ctx.principal!.userId,
    relation,
    shared,
    param,
    query.orgId ?? null,
    ...(query.filter ? [query.filter] : []),
  ]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const users = query.filter ? await usersByEmail(ctx, query.filter) : null
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      if (reader.actor.kind !== 'person') return []
      const at = previous.get(reader.orgId)
      const filter: TaskFilter = {
        ...shared,
        ...relationFilter(relation, reader.actor.id as MemberId),
        archived: false,
        ...(query.filter ? { where: await resolveHubFilter(ctx, reader, query.filter, users!) } : {}),
      }
      return ctx.store.tasks.list(
        reader.orgId,
        filter,
        { sort, direction, after: at ? { value: at.v, id: at.i } : null, limit },
        reader.scope,
      )
    },
    { only: query.orgId as OrgId | undefined },
  )
  const merged = mergeOrgRows(
    results.map((r) => ({ orgId: r.orgId, rows: r.value })),
    previous,
    {
      limit,
      keep: partial.map((p) => p.orgId),
      before: (a, b) => {
        const x = taskSortValue(a.row, sort, direction)
        const y = taskSortValue(b.row, sort, direction)
        if (x !== y) return direction === 'asc' ? x < y : x > y
        return a.orgId < b.orgId
      },
      positionOf: (t) => ({ v: taskSortValue(t, sort, direction), i: t.id }),
    },
  )
  return {
    data: merged.data.map(({ row }) => row) as Task[],
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}
