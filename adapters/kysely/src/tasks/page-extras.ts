import type { CustomFieldValues, LabelId, OrgId, ReadScope, Task } from '@workgraph/core'
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import { storedValue } from '../fields/values.ts'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'
import { scopeArgs, scopeShape, scopeStandIn } from './compiled-scope.ts'

/**
 * One row of the extras' union: a page task that is blocked (`blocked`), one of its labels
 * (`label`, `ref` the label, `sort` when it was added) or one of its custom field values (`field`,
 * `ref` the field, the value in whichever column holds it).
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

const none = () => sql<string | null>`null`
const kind = (k: ExtraRow['kind']) => sql<ExtraRow['kind']>`${sql.lit(k)}`.as('kind')

/**
 * Completes a page of the task list in one statement where it took three: `isBlocked` (open,
 * unarchived blockers the reader may view: the rule of `blockedBy`), `labelIds` (in the order they
 * were added) and the active custom fields' values. Each branch reads the page's own rows by id, as
 * the three statements did (in the page query itself, Postgres planned the blockers as a hashed
 * subplan over every dependency of the org: 60–300 ms at 100,000 tasks).
 */
export async function withPageExtras(
  db: Kysely<Database>,
  orgId: OrgId,
  tasks: Omit<Task, 'labelIds' | 'fields'>[],
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
  const byId = new Map<string, Task>()
  for (const t of tasks as Task[]) {
    // Completed in place: the rows are this read's own, freshly mapped (a spread per task cost more).
    t.labelIds = []
    t.fields = {}
    byId.set(t.id, t)
  }
  for (const r of await runCompiled(db, query)) {
    const task = byId.get(r.taskId)!
    if (r.kind === 'blocked') task.isBlocked = true
    else if (r.kind === 'label') task.labelIds.push(r.ref as LabelId)
    else (task.fields as CustomFieldValues)[r.ref!] = storedValue(r as never)
  }
  return tasks as Task[]
}
