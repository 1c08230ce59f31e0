import type {
  CycleId,
  MemberId,
  MilestoneId,
  OrgId,
  ProjectId,
  ReadScope,
  StateId,
  Task,
  TaskId,
  TeamId,
} from '@workgraph/core'
import type { TaskRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { deleteRecordProperties } from '../connectors/record-properties.ts'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { scopeArgs, scopeShape, scopeStandIn } from './compiled-scope.ts'
import { withLabelIds } from './labels.ts'
import { taskPageRows } from './list.ts'
import { taskSelect } from './task-select.ts'

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
      let q = db
        .selectFrom('taskDependencies as d')
        .innerJoin('tasks as b', (j) => j.onRef('b.orgId', '=', 'd.orgId').onRef('b.id', '=', 'd.blockerId'))
        .innerJoin('workflowStates as bs', (j) =>
          j.onRef('bs.orgId', '=', 'b.orgId').onRef('bs.id', '=', 'b.stateId'),
        )
        .select('d.blockedId')
        .distinct()
        .where('d.orgId', '=', args[0]!)
        .where('d.blockedId', 'in', args.slice(1, 1 + tasks.length))
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
      const rows = await taskPageRows(db, dialect, orgId, filter, page, scope)
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
