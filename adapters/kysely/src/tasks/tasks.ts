import type {
  CycleId,
  MemberId,
  MilestoneId,
  OrgId,
  PageRequest,
  ProjectId,
  ReadScope,
  StateId,
  Task,
  TaskId,
  TeamId,
} from '@workgraph/core'
import type { TaskFilter, TaskRepo, TaskSort } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { deleteRecordProperties } from '../connectors/record-properties.ts'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { fieldSortKey } from './fields.ts'
import { withLabelIds } from './labels.ts'
import { applyTaskFilters, blockedBy, taskSortKey } from './search.ts'

/**
 * Tasks with their key and state category (from the team and the state, so renaming either is one
 * write) and whether an open, unarchived task the reader may view blocks them.
 */
export function taskSelect(db: Kysely<Database>, scope: ReadScope, blocked: 'inline' | 'after' = 'inline') {
  const q = db
    .selectFrom('tasks')
    .innerJoin('teams', (j) =>
      j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
    )
    .innerJoin('workflowStates as s', (j) =>
      j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
    )
    .selectAll('tasks')
    .select(['teams.key as teamKey', 's.category as stateCategory'])
    .where('tasks.deletedAt', 'is', null)
  // 'after': the caller sets the flag with `withBlockedFlags`, one query for the whole page.
  return blocked === 'inline'
    ? q.select((eb) => blockedBy(eb, scope).as('isBlocked'))
    : q.select(sql<boolean>`0`.as('isBlocked'))
}

/**
 * Sets `isBlocked` on a page of tasks with one look-up of their open, unarchived blockers the reader
 * may view (the rule of `blockedBy`). In the page query itself, Postgres planned that subquery as a
 * hashed subplan: it read every dependency and every task of the org once per page (60–300 ms at
 * 100,000 tasks), where this reads the page's own edges through `task_dependencies_blocker`.
 */
async function withBlockedFlags<T extends { id: string; isBlocked: boolean }>(
  db: Kysely<Database>,
  orgId: string,
  tasks: T[],
  scope: ReadScope,
): Promise<T[]> {
  if (tasks.length === 0) return tasks
  const query = compiledOnce(
    db,
    `tasks.blockedFlags:${tasks.length}:${scopeShape(scope)}`,
    [orgId, ...tasks.map((t) => t.id), ...scopeArgs(scope)],
    (args) => {
      const ids = args.slice(1, 1 + tasks.length)
      let q = db
        .selectFrom('taskDependencies as d')
        .innerJoin('tasks as b', (j) => j.onRef('b.orgId', '=', 'd.orgId').onRef('b.id', '=', 'd.blockerId'))
        .innerJoin('workflowStates as bs', (j) =>
          j.onRef('bs.orgId', '=', 'b.orgId').onRef('bs.id', '=', 'b.stateId'),
        )
        .select('d.blockedId')
        .distinct()
        .where('d.orgId', '=', args[0]!)
        .where('d.blockedId', 'in', ids)
        .where('b.deletedAt', 'is', null)
        .where('b.archivedAt', 'is', null)
        .where('bs.category', 'not in', ['completed', 'canceled'])
      const standIn = scopeStandIn(scope, args.slice(1 + tasks.length))
      if (!standIn.orgWide) q = q.where((eb) => visibleTask(eb, 'b', standIn))
      return q
    },
  )
  const blocked = new Set((await runCompiled(db, query)).map((r) => r.blockedId))
  for (const task of tasks) if (blocked.has(task.id)) task.isBlocked = true
  return tasks
}

export function taskRepo(db: Kysely<Database>, dialect: Dialect): TaskRepo {
  /** The page query of `list`: filters, the reader's scope and the keyset. */
  function listQuery(orgId: OrgId, filter: TaskFilter, page: PageRequest<TaskSort>, scope: ReadScope) {
    let q = taskSelect(db, scope, 'after').where('tasks.orgId', '=', orgId)
    if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
    if (filter.teamId) q = q.where('tasks.teamId', '=', filter.teamId)
    if (filter.stateId) q = q.where('tasks.stateId', '=', filter.stateId)
    if (filter.stateCategory?.length) q = q.where('s.category', 'in', filter.stateCategory)
    if (filter.assigneeId === null) q = q.where('tasks.assigneeId', 'is', null)
    else if (filter.assigneeId) q = q.where('tasks.assigneeId', '=', filter.assigneeId)
    if (filter.priority) q = q.where('tasks.priority', '=', filter.priority)
    if (filter.cycleId === null) q = q.where('tasks.cycleId', 'is', null)
    else if (filter.cycleId) q = q.where('tasks.cycleId', '=', filter.cycleId)
    if (filter.projectId === null) q = q.where('tasks.projectId', 'is', null)
    else if (filter.projectId) q = q.where('tasks.projectId', '=', filter.projectId)
    if (filter.milestoneId === null) q = q.where('tasks.milestoneId', 'is', null)
    else if (filter.milestoneId) q = q.where('tasks.milestoneId', '=', filter.milestoneId)
    if (filter.updatedSince) q = q.where('tasks.updatedAt', '>=', filter.updatedSince)
    if (filter.archived === true) q = q.where('tasks.archivedAt', 'is not', null)
    if (filter.archived === false) q = q.where('tasks.archivedAt', 'is', null)
    if (filter.parentId) q = q.where('tasks.parentId', '=', filter.parentId)
    // A task's blockers, or the tasks it blocks: one side of its dependency rows.
    const linked = (pick: 'blockerId' | 'blockedId', other: 'blockedId' | 'blockerId', taskId: string) =>
      q.where('tasks.id', 'in', (eb) =>
        eb.selectFrom('taskDependencies').select(pick).where('orgId', '=', orgId).where(other, '=', taskId),
      )
    if (filter.awakeAt) {
      const awakeAt = filter.awakeAt
      q = q.where('tasks.id', 'not in', (eb) =>
        eb
          .selectFrom('triageSnoozes')
          .select('taskId')
          .where('orgId', '=', orgId)
          .where('snoozedUntil', '>', awakeAt),
      )
    }
    if (filter.blockersOf) q = linked('blockerId', 'blockedId', filter.blockersOf)
    if (filter.blockedBy) q = linked('blockedId', 'blockerId', filter.blockedBy)
    q = applyTaskFilters(q, orgId, filter, scope, dialect)
    const sort = filter.sortField ? fieldSortKey(orgId, filter.sortField, page.direction) : taskSortKey(page)
    return keysetPage(q, page, { sort, id: 'tasks.id' })
  }

  return {
    async insert(task) {
      await db
        .insertInto('tasks')
        .values({
          ...task,
          startDate: task.startDate ?? null,
          parentId: task.parentId ?? null,
          cycleId: task.cycleId ?? null,
          projectId: task.projectId ?? null,
          milestoneId: task.milestoneId ?? null,
          deletedAt: null,
        })
        .execute()
    },
    async get(orgId, id, scope) {
      let q = taskSelect(db, scope).where('tasks.orgId', '=', orgId).where('tasks.id', '=', id)
      if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      const row = await q.executeTakeFirst()
      return row ? (await withLabelIds(db, orgId, [toTask(row)]))[0]! : null
    },
    async list(orgId, filter, page, scope) {
      // The plain list (no filter but `archived`, the usual first request of a client) is compiled
      // once per sort, page size and scope shape; any other filter builds its query each time.
      const plain =
        !filter.sortField && Object.entries(filter).every(([k, v]) => k === 'archived' || v === undefined)
      const rows = plain
        ? await runCompiled(
            db,
            compiledOnce(
              db,
              `tasks.list:${filter.archived}:${page.sort}:${page.direction}:${page.limit}:${afterShape(page)}:${scopeShape(scope)}`,
              [orgId, ...(page.after ? [page.after.value, page.after.id] : []), ...scopeArgs(scope)],
              (args) => {
                const after = page.after ? { value: args[1]!, id: args[2]! } : null
                const standIn = scopeStandIn(scope, args.slice(page.after ? 3 : 1))
                return listQuery(args[0] as OrgId, filter, { ...page, after }, standIn)
              },
            ),
          )
        : await listQuery(orgId, filter, page, scope).execute()
      return withLabelIds(db, orgId, await withBlockedFlags(db, orgId, rows.map(toTask), scope))
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('tasks')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('deletedAt', 'is', null)
        .execute()
    },
    async childrenOf(orgId, parentIds) {
      if (parentIds.length === 0) return []
      const rows = await db
        .selectFrom('tasks')
        .select(['id', 'parentId', 'archivedAt'])
        .where('orgId', '=', orgId)
        .where('parentId', 'in', [...parentIds])
        .where('deletedAt', 'is', null)
        .execute()
      return rows.map((r) => ({
        id: r.id as TaskId,
        parentId: r.parentId as TaskId,
        archived: r.archivedAt !== null,
      }))
    },
    async delete(orgId, id, at) {
      await db
        .updateTable('tasks')
        .set({ deletedAt: at, updatedAt: at })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
      // A deleted task is never restored: its app properties go now.
      await deleteRecordProperties(db, orgId, 'task', id)
    },
  }
}

type Row = Omit<
  Database['tasks'],
  'createdAt' | 'updatedAt' | 'startedAt' | 'completedAt' | 'canceledAt' | 'archivedAt' | 'deletedAt'
> & {
  createdAt: Date | string
  updatedAt: Date | string
  startedAt: Date | string | null
  completedAt: Date | string | null
  canceledAt: Date | string | null
  archivedAt: Date | string | null
  deletedAt: Date | string | null
  teamKey: string
  stateCategory: string
  isBlocked: unknown
}

export function toTask(r: Row): Omit<Task, 'labelIds' | 'fields'> {
  return {
    id: r.id as TaskId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId,
    key: `${r.teamKey}-${r.number}`,
    number: r.number,
    title: r.title,
    description: r.description,
    stateId: r.stateId as StateId,
    stateCategory: r.stateCategory as Task['stateCategory'],
    assigneeId: r.assigneeId as MemberId | null,
    creatorId: r.creatorId as MemberId,
    priority: r.priority as Task['priority'],
    estimate: r.estimate === null ? null : Number(r.estimate),
    dueDate: r.dueDate,
    startDate: r.startDate,
    parentId: r.parentId as TaskId | null,
    isBlocked: Boolean(Number(r.isBlocked)),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    startedAt: isoOrNull(r.startedAt),
    completedAt: isoOrNull(r.completedAt),
    canceledAt: isoOrNull(r.canceledAt),
    archivedAt: isoOrNull(r.archivedAt),
    cycleId: r.cycleId as CycleId | null,
    projectId: r.projectId as ProjectId | null,
    milestoneId: r.milestoneId as MilestoneId | null,
  }
}

/** What of a reader's scope changes the SQL of a scoped query: org-wide, or how many teams and projects. */
function scopeShape(scope: ReadScope): string {
  return scope.orgWide ? 'org' : `${scope.teamIds.length}/${scope.projectIds.length}`
}

/** The scope's values as arguments of a query from `compiledOnce`: none for an org-wide reader. */
function scopeArgs(scope: ReadScope): string[] {
  return scope.orgWide ? [] : [...scope.teamIds, ...scope.projectIds]
}

/** The scope with stand-ins for its teams and projects, to build the query once. */
function scopeStandIn(scope: ReadScope, args: readonly string[]): ReadScope {
  if (scope.orgWide) return scope
  const teams = scope.teamIds.length
  return { ...scope, teamIds: args.slice(0, teams), projectIds: args.slice(teams) }
}

/** A keyset position adds a comparison; a null sort value is never sent (sort keys are not null). */
function afterShape(page: PageRequest<TaskSort>): string {
  return page.after ? 'after' : 'first'
}
