import type { CustomFieldValues, LabelId, OrgId, ReadScope, Task } from '@workgraph/core'
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { compiledOnce } from '../driver/fast-path.ts'
import { runRaw } from '../driver/raw-rows.ts'
import { storedValue } from '../fields/values.ts'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { scopeArgs, scopeShape, scopeStandIn } from './compiled-scope.ts'

/**
 * One row of the extras' union: a page task that is blocked (`blocked`), one of its labels
 * (`label`, `ref` the label, `sort` when it was added) or one of its custom field values (`field`,
 * `ref` the field, the value in whichever column holds it). As the query names its columns; the
 * driver answers them snake_cased (`StoredExtraRow`).
 */
interface ExtraRow {
  kind: 'blocked' | 'label' | 'field'
  taskId: string
  ref: string | null
  valueText: string | null
  valueNumber: unknown
  valueJson: string | null
  sort: Date | string | null
}

/** `ExtraRow` as the driver answers it (`runRaw`). */
interface StoredExtraRow {
  kind: ExtraRow['kind']
  task_id: string
  ref: string | null
  value_text: string | null
  value_number: unknown
  value_json: string | null
}

const none = () => sql<string | null>`null`
const kind = (k: ExtraRow['kind']) => sql<ExtraRow['kind']>`${sql.lit(k)}`.as('kind')

/**
 * Completes a page of the task list in one statement where it took three: `isBlocked` (open,
 * unarchived blockers the reader may view: the rule of `blockedBy`), `labelIds` (in the order they
 * were added) and the active custom fields' values. Each branch reads the page's own rows by id, as
 * the three statements did (in the page query itself, Postgres planned the blockers as a hashed
 * subplan over every dependency of the org: 60–300 ms at 100,000 tasks). The tasks come with their
 * `labelIds` and `fields` empty (`taskFromStored`) and are completed in place.
 */
export async function withPageExtras(
  db: Kysely<Database>,
  orgId: OrgId,
  tasks: Task[],
  scope: ReadScope,
): Promise<Task[]> {
  if (tasks.length === 0) return []
  const n = tasks.length
  const query = compiledOnce(
    db,
    `tasks.pageExtras:${n}:${scopeShape(scope)}`,
    [orgId, ...tasks.map((t) => t.id), ...scopeArgs(scope)],
    (args) => {
      const org = args[0]!
      const ids = args.slice(1, 1 + n)
      let blocked = db
        .selectFrom('taskDependencies as d')
        .innerJoin('tasks as b', (j) => j.onRef('b.orgId', '=', 'd.orgId').onRef('b.id', '=', 'd.blockerId'))
        .innerJoin('workflowStates as bs', (j) =>
          j.onRef('bs.orgId', '=', 'b.orgId').onRef('bs.id', '=', 'b.stateId'),
        )
        .select([
          kind('blocked'),
          'd.blockedId as taskId',
          none().as('ref'),
          none().as('valueText'),
          none().as('valueNumber'),
          none().as('valueJson'),
          none().as('sort'),
        ])
        .where('d.orgId', '=', org)
        .where('d.blockedId', 'in', ids)
        .where('b.deletedAt', 'is', null)
        .where('b.archivedAt', 'is', null)
        .where('bs.category', 'not in', ['completed', 'canceled'])
      const standIn = scopeStandIn(scope, args.slice(1 + n))
      if (!standIn.orgWide) blocked = blocked.where((eb) => visibleTask(eb, 'b', standIn))
      // The branches' columns agree as ExtraRow says (Kysely's inferred types of the nulls do not).
      // Postgres types a union's columns pair by pair, left to right, and two nulls make text: the
      // first two branches between them give every column its type (the value number, the label's
      // timestamp), the all-null blocked rows come last.
      return db
        .selectFrom('customFieldValues as v')
        .innerJoin('customFields as f', (j) =>
          j.onRef('f.orgId', '=', 'v.orgId').onRef('f.id', '=', 'v.fieldId'),
        )
        .select([
          kind('field'),
          'v.recordId as taskId',
          'v.fieldId as ref',
          'v.valueText',
          'v.valueNumber',
          'v.valueJson',
          none().as('sort'),
        ])
        .where('v.orgId', '=', org)
        .where('v.recordKind', '=', 'task')
        .where('v.recordId', 'in', ids)
        .where('f.archivedAt', 'is', null)
        .unionAll(
          db
            .selectFrom('taskLabels as l')
            .select([
              kind('label'),
              'l.taskId',
              'l.labelId as ref',
              none().as('valueText'),
              none().as('valueNumber'),
              none().as('valueJson'),
              sql<Date | string | null>`${sql.ref('l.createdAt')}`.as('sort'),
            ])
            .where('l.orgId', '=', org)
            .where('l.taskId', 'in', ids) as never,
        )
        .unionAll(blocked as never)
        .orderBy('kind')
        .orderBy('sort')
        .orderBy('ref') as never as { compile(): CompiledQuery<ExtraRow> }
    },
  )
  const rows = await runRaw<StoredExtraRow>(db, query)
  if (rows.length === 0) return tasks
  const byId = new Map<string, Task>()
  for (const t of tasks) byId.set(t.id, t)
  for (const r of rows) {
    const task = byId.get(r.task_id)!
    if (r.kind === 'blocked') task.isBlocked = true
    else if (r.kind === 'label') task.labelIds.push(r.ref as LabelId)
    else
      (task.fields as CustomFieldValues)[r.ref!] = storedValue({
        valueText: r.value_text,
        valueNumber: r.value_number,
        valueJson: r.value_json,
      })
  }
  return tasks
}
