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
import type { TaskRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database, Dialect } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { insertNewTask, taskRow } from './create.ts'
import { withLabelIds } from './labels.ts'
import { taskPageRows } from './list.ts'
import { withPageExtras } from './page-extras.ts'
import { taskPagesRows } from './pages.ts'
import { taskFromStored, tasksFromStored } from './stored-task.ts'
import { taskSelect } from './task-select.ts'

export function taskRepo(db: Kysely<Database>, dialect: Dialect, purge: Purge): TaskRepo {
  return {
    async insert(task) {
      await db.insertInto('tasks').values(taskRow(task)).execute()
    },
    async create(task, { teamKey, stateCategory }, rows) {
      // The row as stored (Postgres answers its timestamps as dates), through the one mapping of reads.
      const row = await insertNewTask(db, dialect, taskRow(task), rows)
      return toTask({ ...row, teamKey, stateCategory, isBlocked: false })
    },
    async get(orgId, id, scope) {
      let q = taskSelect(db, scope).where('tasks.orgId', '=', orgId).where('tasks.id', '=', id)
      if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      const row = await q.executeTakeFirst()
      return row ? (await withLabelIds(db, orgId, [toTask(row)]))[0]! : null
    },
    async list(orgId, filter, page, scope) {
      const rows = await taskPageRows(db, dialect, orgId, filter, page, scope)
      return withPageExtras(db, orgId, tasksFromStored(rows), scope)
    },
    async listEach(orgId, filters, page, scope) {
      const pages = await taskPagesRows(db, dialect, orgId, filters, page, scope)
      // A task on several pages is one object there, completed once by the one read of the extras.
      const byId = new Map<string, Task>()
      const mapped = pages.map((rows) =>
        rows.map((row) => {
          const known = byId.get(row.id)
          if (known) return known
          const task = taskFromStored(row)
          byId.set(row.id, task)
          return task
        }),
      )
      await withPageExtras(db, orgId, [...byId.values()], scope)
      return mapped
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
      // A deleted task is never restored: what hangs on it elsewhere (app properties) goes now.
      await purge(orgId, 'task', [id])
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
