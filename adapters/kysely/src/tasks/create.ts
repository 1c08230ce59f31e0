import type { NewTaskRows, TaskRecord } from '@workgraph/core/storage'
import type { Kysely, QueryCreator, Selectable } from 'kysely'
import { rowsOnce, runCompiled } from '../driver/fast-path.ts'
import { heldStatement, holdWrite } from '../driver/held-writes.ts'
import { fieldValueRow, fieldValueRowUpsert } from '../fields/values.ts'
import { historyRows, historyRowsInsert } from '../history.ts'
import { taskLabelRows, taskLabelRowsInsert } from '../labels/labels.ts'
import type { Database, Dialect } from '../schema.ts'
import { TASK_HISTORY } from './history/history.ts'
import { subscriberRows, subscriberRowsInsert } from './subscribers.ts'

/** The task's row as inserted. */
export function taskRow(task: TaskRecord) {
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

type Row = Record<string, unknown>

/** A new task's rows besides its own, by table, as the single writes stored them. */
function rowsOf(task: TaskRecord, rows: NewTaskRows) {
  const holder = { orgId: task.orgId, kind: 'task', id: task.id }
  return {
    labels: taskLabelRows(task.orgId, task.id, rows.labelIds, rows.by),
    fields: rows.fieldValues.map(({ field, value }) => fieldValueRow(holder, field.id, value, rows.by.at)),
    history: rows.history.length > 0 ? historyRows(TASK_HISTORY, rows.history) : [],
    subscribers: subscriberRows(task.orgId, task.id, rows.subscriberIds, rows.by.at),
  }
}

/**
 * Inserts a new task with its labels, field values, history and subscriptions, answering the task's
 * row as stored. Compiled once per shape (`rowsOnce`: the rows' keys and counts): Kysely's building
 * and compiling of these inserts cost more CPU than the database's running them.
 */
export async function insertNewTask(
  db: Kysely<Database>,
  dialect: Dialect,
  task: TaskRecord,
  rows: NewTaskRows,
): Promise<Selectable<Database['tasks']>> {
  const { labels, fields, history, subscribers } = rowsOf(task, rows)
  if (dialect === 'postgres') {
    // One statement: the task and the other writes as data-modifying CTEs (foreign keys are checked
    // at its end), held back for the transaction's next statement, the event append (held-writes.ts):
    // the team's number is locked until commit, and this saves a round trip inside that lock. The
    // answer is the row as inserted: nothing of the task's row is computed by the database.
    const counts = [labels.length, fields.length, history.length, subscribers.length]
    const all: Row[] = [taskRow(task), ...labels, ...fields, ...history, ...subscribers]
    const statement = rowsOnce(db, `tasks.create:${counts.join(',')}`, all, ([taskStand, ...rest]) => {
      const take = (n: number) => rest.splice(0, n)
      const writes: unknown[] = []
      const labelStands = take(counts[0]!)
      if (labelStands.length > 0) writes.push(taskLabelRowsInsert(db, labelStands))
      for (const f of take(counts[1]!)) writes.push(fieldValueRowUpsert(db, f as never))
      const historyStands = take(counts[2]!)
      if (historyStands.length > 0) writes.push(historyRowsInsert(db, TASK_HISTORY.table, historyStands))
      const subscriberStands = take(counts[3]!)
      if (subscriberStands.length > 0) writes.push(subscriberRowsInsert(db, subscriberStands))
      writes.push(db.insertInto('tasks').values(taskStand as never))
      let into: QueryCreator<Database> = db
      for (const [i, write] of writes.entries())
        into = into.with(`new_task_w${i}`, () => write as never) as unknown as QueryCreator<Database>
      return heldStatement(into)
    })
    await holdWrite(db, statement)
    return taskRow(task) as unknown as Selectable<Database['tasks']>
  }
  // SQLite, which has no data-modifying CTEs: the task, then its other rows as one insert into the
  // `newTaskRows` view, whose triggers route each row to its table (migration 0072).
  const [row] = await runCompiled(
    db,
    rowsOnce(db, 'tasks.insert', [taskRow(task)], ([r]) =>
      db
        .insertInto('tasks')
        .values(r as never)
        .returningAll(),
    ),
  )
  const routed = viewRows(task, { labels, fields, history, subscribers })
  if (routed.length > 0)
    await runCompiled(
      db,
      rowsOnce(db, 'newTaskRows.insert', routed, (r) => db.insertInto('newTaskRows').values(r as never)),
    )
  return row!
}

type ViewRow = Database['newTaskRows']

/** No column set: every row of one insert carries every key, so each row's shape is the same. */
const NONE = {
  ref: null,
  actorId: null,
  automation: null,
  id: null,
  field: null,
  beforeValue: null,
  afterValue: null,
  valueText: null,
  valueNumber: null,
  valueJson: null,
} as const

/** The rows for the `newTaskRows` view, in the order the single writes ran. */
function viewRows(task: TaskRecord, byTable: ReturnType<typeof rowsOf>): ViewRow[] {
  const { orgId, id: taskId } = task
  const at = { orgId, taskId }
  const out: ViewRow[] = []
  for (const l of byTable.labels)
    out.push({ ...NONE, ...at, kind: 'label', ref: l.labelId, actorId: l.createdBy, createdAt: l.createdAt })
  for (const f of byTable.fields) {
    const { valueText, valueNumber, valueJson, updatedAt } = f
    out.push({
      ...NONE,
      ...at,
      kind: 'field',
      ref: f.fieldId,
      valueText,
      valueNumber,
      valueJson,
      createdAt: updatedAt,
    })
  }
  for (const h of byTable.history as HistoryRow[]) {
    const { id, actorId, field, beforeValue, afterValue, createdAt } = h
    const automation = h.automation ?? null
    out.push({
      ...NONE,
      ...at,
      kind: 'history',
      id,
      actorId,
      automation,
      field,
      beforeValue,
      afterValue,
      createdAt,
    })
  }
  for (const s of byTable.subscribers)
    out.push({ ...NONE, ...at, kind: 'subscriber', ref: s.actorId, createdAt: s.createdAt })
  return out
}

/** A task history row as `historyRows` makes it. */
type HistoryRow = Pick<ViewRow, 'id' | 'actorId' | 'field' | 'createdAt'> & {
  automation?: string | null
  beforeValue: string
  afterValue: string
}
