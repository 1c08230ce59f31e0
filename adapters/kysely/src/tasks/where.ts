import type { OrgId, ReadScope } from '@workgraph/core'
import type { TaskCondition } from '@workgraph/core/storage'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { matchesText } from '../text.ts'
import { blockedBy } from './blocked.ts'

type Eb = ExpressionBuilder<Database, 'tasks'>
type Condition = Exclude<TaskCondition, { kind: 'and' | 'or' | 'not' }>
type Compared = Extract<TaskCondition, { kind: 'column' | 'field' }>

const FALSE = sql<SqlBool>`1 = 0`

/**
 * The composed filter of `tasks.query` as one condition of the list's own query (beside the
 * permission predicate, so pages stay exact). Every leaf is two-valued: a comparison with a missing
 * value is false rather than unknown (`x is not null and …`), so `not` is the exact complement, as
 * core's filter language promises.
 */
export function taskCondition(
  eb: Eb,
  orgId: OrgId,
  condition: TaskCondition,
  scope: ReadScope,
  dialect: Dialect,
): Expression<SqlBool> {
  const walk = (c: TaskCondition): Expression<SqlBool> => {
    if (c.kind === 'and') return eb.and(c.of.map(walk))
    if (c.kind === 'or') return eb.or(c.of.map(walk))
    if (c.kind === 'not') return eb.not(walk(c.of))
    return leaf(eb, orgId, c, scope, dialect)
  }
  return walk(condition)
}

function leaf(eb: Eb, orgId: OrgId, c: Condition, scope: ReadScope, dialect: Dialect): Expression<SqlBool> {
  switch (c.kind) {
    case 'column':
      return compare(eb, eb.ref(`tasks.${c.column}`), c)
    case 'stateCategory':
      return eb(
        'tasks.stateId',
        'in',
        eb
          .selectFrom('workflowStates as fs')
          .select('fs.id')
          .where('fs.orgId', '=', orgId)
          .where('fs.category', 'in', c.categories),
      )
    case 'labels': {
      const carries = (ids: readonly string[] | null) => {
        let q = eb
          .selectFrom('taskLabels as fl')
          .select(sql.lit(1).as('one'))
          .where('fl.orgId', '=', orgId)
          .whereRef('fl.taskId', '=', 'tasks.id')
        if (ids) q = q.where('fl.labelId', 'in', ids)
        return eb.exists(q)
      }
      if (c.op === 'none') return eb.not(carries(null))
      if (c.op === 'any') return carries(c.ids)
      return eb.and(c.ids.map((id) => carries([id])))
    }
    case 'field':
      return fieldCondition(eb, orgId, c)
    case 'text': {
      const match = matchesText(dialect, orgId, 'task', 'tasks', c.terms)
      // Postgres: a row whose search vector is null matches nothing, and `not` then matches it.
      return dialect === 'postgres' ? sql<SqlBool>`coalesce(${match}, false)` : match
    }
    case 'blocked':
      return blockedBy(eb, scope)
    case 'ids':
      return c.ids.length ? eb('tasks.id', 'in', c.ids) : FALSE
  }
}

/** `value` compared as the condition says, false when the value is missing (unless asking for that). */
function compare(eb: Eb, value: Expression<unknown>, c: Pick<Compared, 'op' | 'value'>): Expression<SqlBool> {
  if (c.op === 'null') return eb(value, 'is', null)
  const present = eb(value, 'is not', null)
  if (c.op === 'in') {
    const list = c.value as Array<string | number>
    return list.length ? eb.and([present, eb(value, 'in', list)]) : FALSE
  }
  const ops = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const
  return eb.and([present, eb(value, ops[c.op], c.value as string | number)])
}

/** A custom field's value row matches: a multi-select holds one of the options; the others compare their column. */
function fieldCondition(
  eb: Eb,
  orgId: OrgId,
  c: Extract<TaskCondition, { kind: 'field' }>,
): Expression<SqlBool> {
  const row = eb
    .selectFrom('customFieldValues as fv')
    .select(sql.lit(1).as('one'))
    .where('fv.orgId', '=', orgId)
    .where('fv.recordKind', '=', 'task')
    .whereRef('fv.recordId', '=', 'tasks.id')
    .where('fv.fieldId', '=', c.field.id)
  if (c.op === 'null') return eb.not(eb.exists(row))
  if (c.field.type === 'multiSelect') {
    const holds = [c.value].flat() as string[]
    if (holds.length === 0) return FALSE
    const like = (option: string) =>
      sql<SqlBool>`${sql.ref('fv.valueJson')} like ${`%"${option.replace(/[\\%_"]/g, (ch) => `\\${ch}`)}"%`} escape '\\'`
    return eb.exists(row.where((w) => w.or(holds.map(like))))
  }
  const column = c.field.type === 'number' ? 'fv.valueNumber' : 'fv.valueText'
  return eb.exists(row.where((w) => compare(w as never, w.ref(column), c)))
}
