import type { CustomFieldValues, OrgId } from '@workgraph/core'
import type { CustomFieldValueRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import type { Database } from '../schema.ts'

type ValueRow = Pick<Database['customFieldValues'], 'valueText' | 'valueJson'> & { valueNumber: unknown }

/** The value as core carries it, from whichever column holds it. */
export function storedValue(r: ValueRow): CustomFieldValues[string] {
  if (r.valueJson !== null) return JSON.parse(r.valueJson)
  if (r.valueNumber !== null) return Number(r.valueNumber)
  return r.valueText as string
}

/** The columns a value is stored in: the one its type uses, the others null. */
export function fieldValueColumns(value: CustomFieldValues[string]) {
  return {
    valueText: typeof value === 'string' ? value : null,
    valueNumber: typeof value === 'number' ? value : null,
    valueJson: Array.isArray(value) ? JSON.stringify(value) : null,
  }
}

/** Sets one field's value on a record (the column its type uses): a query to run or compose. */
export function fieldValueUpsert(
  db: Kysely<Database>,
  holder: { orgId: string; kind: string; id: string },
  fieldId: string,
  value: CustomFieldValues[string],
  at: string,
) {
  return fieldValueRowUpsert(db, fieldValueRow(holder, fieldId, value, at))
}

/** The row a field's value on a record is stored as. */
export function fieldValueRow(
  holder: { orgId: string; kind: string; id: string },
  fieldId: string,
  value: CustomFieldValues[string],
  at: string,
) {
  const { orgId, kind: recordKind, id: recordId } = holder
  return { orgId, recordKind, recordId, fieldId, ...fieldValueColumns(value), updatedAt: at }
}

/** The upsert of a value's row (or stand-ins for it, see `rowsOnce`). */
export function fieldValueRowUpsert(db: Kysely<Database>, row: ReturnType<typeof fieldValueRow>) {
  const { valueText, valueNumber, valueJson, updatedAt } = row
  return db
    .insertInto('customFieldValues')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['orgId', 'recordKind', 'recordId', 'fieldId'])
        .doUpdateSet({ valueText, valueNumber, valueJson, updatedAt }),
    )
}

export function customFieldValueRepo(db: Kysely<Database>): CustomFieldValueRepo {
  return {
    async set(holder, field, value, at) {
      await fieldValueUpsert(db, holder, field.id, value, at).execute()
    },
    async clear(holder, fieldId) {
      const result = await db
        .deleteFrom('customFieldValues')
        .where('orgId', '=', holder.orgId)
        .where('recordKind', '=', holder.kind)
        .where('recordId', '=', holder.id)
        .where('fieldId', '=', fieldId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    valuesOf: (orgId, kind, ids) => valuesOf(db, orgId, kind, ids),
  }
}

/** The values of active fields on these records with one query, by record id. */
export async function valuesOf(
  db: Kysely<Database>,
  orgId: OrgId,
  kind: string,
  ids: readonly string[],
): Promise<Map<string, CustomFieldValues>> {
  const out = new Map<string, CustomFieldValues>()
  if (ids.length === 0) return out
  // Every page of a list asks this, for its page's ids.
  const query = compiledOnce(
    db,
    `fields.valuesOf:${ids.length}`,
    [orgId, kind, ...ids],
    ([org, k, ...records]) =>
      db
        .selectFrom('customFieldValues as v')
        .innerJoin('customFields as f', (j) =>
          j.onRef('f.orgId', '=', 'v.orgId').onRef('f.id', '=', 'v.fieldId'),
        )
        .select(['v.recordId', 'v.fieldId', 'v.valueText', 'v.valueNumber', 'v.valueJson'])
        .where('v.orgId', '=', org!)
        .where('v.recordKind', '=', k!)
        .where('v.recordId', 'in', records)
        .where('f.archivedAt', 'is', null)
        .orderBy('v.fieldId'),
  )
  const rows = await runCompiled(db, query)
  for (const r of rows) {
    const values = out.get(r.recordId) ?? {}
    values[r.fieldId] = storedValue(r)
    out.set(r.recordId, values)
  }
  return out
}
