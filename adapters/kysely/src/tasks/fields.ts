import { type CustomField, fieldSortKind, missingFieldKey, type OrgId } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, sql } from 'kysely'
import type { Database } from '../schema.ts'

type Eb = ExpressionBuilder<Database, 'tasks'>

/** The task's value row of a field, as a correlated subquery. */
function valueRow(eb: Eb, orgId: OrgId, fieldId: string) {
  return eb
    .selectFrom('customFieldValues as cfv')
    .where('cfv.orgId', '=', orgId)
    .where('cfv.recordKind', '=', 'task')
    .whereRef('cfv.recordId', '=', 'tasks.id')
    .where('cfv.fieldId', '=', fieldId)
}

/**
 * Tasks by a custom field's value: equal to it (a multi-select holding the option), without a
 * value (null), or with any value (undefined).
 */
export function fieldFilter(
  eb: Eb,
  orgId: OrgId,
  filter: { field: CustomField; equals?: string | number | null },
) {
  const row = valueRow(eb, orgId, filter.field.id).select(sql.lit(1).as('one'))
  const { equals } = filter
  if (equals === null) return eb.not(eb.exists(row))
  if (equals === undefined) return eb.exists(row)
  if (typeof equals === 'number') return eb.exists(row.where('cfv.valueNumber', '=', equals))
  if (filter.field.type === 'multiSelect') {
    const pattern = `%"${equals.replace(/[\\%_"]/g, (c) => `\\${c}`)}"%`
    return eb.exists(row.where(sql<boolean>`${sql.ref('cfv.valueJson')} like ${pattern} escape '\\'`))
  }
  return eb.exists(row.where('cfv.valueText', '=', equals))
}

/**
 * What tasks sort by for a custom field, never null (see core's `fieldSortValue`, which computes
 * the same keys for cursors): the number, the option's rank, or '1' and the text; a missing value
 * as the sentinel that puts it last in the direction.
 */
export function fieldSortKey(
  orgId: OrgId,
  field: CustomField,
  direction: 'asc' | 'desc',
): Expression<unknown> {
  const kind = fieldSortKind(field)
  const missing = sql.lit(missingFieldKey(kind, direction))
  const sub = (column: string) =>
    sql`(select ${sql.raw(column)} from custom_field_values cfv where cfv.org_id = ${orgId} and cfv.record_kind = 'task' and cfv.record_id = ${sql.ref('tasks.id')} and cfv.field_id = ${field.id})`
  if (kind === 'number') return sql`coalesce(${sub('cfv.value_number')}, ${missing})`
  if (kind === 'text') return sql`coalesce('1' || ${sub('cfv.value_text')}, ${missing})`
  const ranks = field.options.map((o, i) => sql`when ${o.id} then ${sql.lit(i + 1)}`)
  return sql`coalesce((case ${sub('cfv.value_text')} ${sql.join(ranks, sql` `)} end), ${missing})`
}
