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
import type { NewTaskRows, TaskRecord, TaskRepo } from '@workgraph/core/storage'
import type { Kysely, QueryCreator } from 'kysely'
import { rowsOnce, runCompiled } from '../fast-path.ts'
import { fieldValueUpsert } from '../fields/values.ts'
import { historyInsert, historyRows, historyRowsInsert } from '../history.ts'
import { taskLabelRows, taskLabelRowsInsert, taskLabelsInsert } from '../labels/labels.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database, Dialect } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { TASK_HISTORY } from './history/history.ts'
import { withLabelIds } from './labels.ts'
import { taskPageRows } from './list.ts'
import { withPageExtras } from './page-extras.ts'
import { taskPagesRows } from './pages.ts'
import { subscriberRows, subscriberRowsInsert, subscribersInsert } from './subscribers.ts'
import { taskSelect } from './task-select.ts'

export function taskRepo(db: Kysely<Database>, dialect: Dialect, purge: Purge): TaskRepo {
  const insert = (task: TaskRecord, into: QueryCreator<Database> = db) =>
    into.insertInto('tasks').values(taskRow(task))
  return {
    async insert(task) {
      await insert(task).execute()
    },
    async create(task, { teamKey, stateCategory }, rows) {
      // The row as stored (Postgres answers its timestamps as dates), through the one mapping of reads.
      if (dialect !== 'postgres') {
        const row = await createOnSqlite(db, task, rows)
        return toTask({ ...row, teamKey, stateCategory, isBlocked: false })
      }
      // Postgres: one statement, the other writes as data-modifying CTEs (their foreign keys are
      // checked at its end).
      let into: QueryCreator<Database> = db
      for (const [i, write] of writesWith(db, task, rows).entries())
        into = into.with(`w${i}`, () => write as never) as unknown as QueryCreator<Database>
      const row = await insert(task, into).returningAll().executeTakeFirstOrThrow()
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
      return withPageExtras(db, orgId, rows.map(toTask), scope)
    },
    async listEach(orgId, filters, page, scope) {
      const pages = await taskPagesRows(db, dialect, orgId, filters, page, scope)
      // A task on several pages is one object there, completed once by the one read of the extras.
      const byId = new Map<string, ReturnType<typeof toTask>>()
      const mapped = pages.map((rows) =>
        rows.map((row) => {
          const known = byId.get(row.id)
          if (known) return known
          const task = toTask(row)
          byId.set(row.id, task)
          return task
        }),
      )
      await withPageExtras(db, orgId, [...byId.values()], scope)
      return mapped as Task[][]
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

/** The task's row as inserted. */
function taskRow(task: TaskRecord) {
  return {
    ...task,
    startDate: task.startDate ?? null,
    parentId: task.parentId ?? null,
    cycleId: task.cycleId ?? null,
    projectId: task.projectId ?? null,
    milestoneId: task.milestoneId ?? null,
    projectRank: task.projectRank ?? null,
    cycleRank: task.cycleRank ?? null,
    deletedAt: null,
  }
}

/**
 * SQLite, which has no data-modifying CTEs: the task, then each write, as the single writes ran.
 * Each statement is compiled once per shape (`rowsOnce`): Kysely's building and compiling of these
 * inserts cost more CPU than SQLite's running them.
 */
async function createOnSqlite(db: Kysely<Database>, task: TaskRecord, rows: NewTaskRows) {
  const { orgId, id } = task
  const [row] = await runCompiled(
    db,
    rowsOnce(db, 'tasks.insert', [taskRow(task)], ([r]) =>
      db
        .insertInto('tasks')
        .values(r as never)
        .returningAll(),
    ),
  )
  if (rows.labelIds.length > 0) {
    const labels = taskLabelRows(orgId, id, rows.labelIds, rows.by)
    await runCompiled(
      db,
      rowsOnce(db, 'taskLabels.insert', labels, (r) => taskLabelRowsInsert(db, r)),
    )
  }
  for (const { field, value } of rows.fieldValues)
    await fieldValueUpsert(db, { orgId, kind: 'task', id }, field.id, value, rows.by.at).execute()
  if (rows.history.length > 0) {
    const history = historyRows(TASK_HISTORY, rows.history)
    await runCompiled(
      db,
      rowsOnce(db, 'taskHistory.insert', history, (r) => historyRowsInsert(db, TASK_HISTORY.table, r)),
    )
  }
  if (rows.subscriberIds.length > 0) {
    const subscribers = subscriberRows(orgId, id, rows.subscriberIds, rows.by.at)
    await runCompiled(
      db,
      rowsOnce(db, 'taskSubscribers.insert', subscribers, (r) => subscriberRowsInsert(db, r)),
    )
  }
  return row!
}

/** A new task's labels, field values, history and subscriptions, as the single writes store them. */
function writesWith(db: Kysely<Database>, task: TaskRecord, rows: NewTaskRows) {
  const { orgId, id } = task
  const writes: { execute(): Promise<unknown> }[] = []
  if (rows.labelIds.length > 0) writes.push(taskLabelsInsert(db, orgId, id, rows.labelIds, rows.by))
  for (const { field, value } of rows.fieldValues)
    writes.push(fieldValueUpsert(db, { orgId, kind: 'task', id }, field.id, value, rows.by.at))
  if (rows.history.length > 0) writes.push(historyInsert(db, TASK_HISTORY, rows.history))
  if (rows.subscriberIds.length > 0)
    writes.push(subscribersInsert(db, orgId, id, rows.subscriberIds, rows.by.at))
  return writes
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
