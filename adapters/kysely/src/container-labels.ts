import type { LabelId } from '@workgraph/core'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type { Database } from './schema.ts'

/**
 * A join table of org labels on a container, named by the group that owns it: programs pass
 * `programLabels`, initiatives `initiativeLabels` (projects keep their own `project_labels` queries).
 */
export interface LabelJoin {
  readonly table: 'programLabels' | 'initiativeLabels'
  readonly column: 'programId' | 'initiativeId'
}

// The two tables have the same shape but for the name of the container column; queries are built
// once over either, so the typed builder is loosened here and only here.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = Kysely<any>

/** Each container's labels, in the order they were added; a deleted label is gone with it. */
export async function labelIdsOf(
  db: Kysely<Database>,
  join: LabelJoin,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, LabelId[]>> {
  const { table, column } = join
  const byId = new Map<string, LabelId[]>(ids.map((id) => [id, []]))
  if (ids.length === 0) return byId
  const rows: { ownerId: string; labelId: string }[] = await (db as Loose)
    .selectFrom(`${table} as cl`)
    .innerJoin('labels as l', (j) => j.onRef('l.orgId', '=', 'cl.orgId').onRef('l.id', '=', 'cl.labelId'))
    .select([`cl.${column} as ownerId`, 'cl.labelId as labelId'])
    .where('cl.orgId', '=', orgId)
    .where(`cl.${column}`, 'in', [...ids])
    .orderBy('cl.createdAt')
    .orderBy('cl.labelId')
    .execute()
  for (const r of rows) byId.get(r.ownerId)?.push(r.labelId as LabelId)
  return byId
}

export async function addContainerLabel(
  db: Kysely<Database>,
  join: LabelJoin,
  orgId: string,
  id: string,
  labelId: string,
  at: string,
): Promise<boolean> {
  const { table, column } = join
  const result = await (db as Loose)
    .insertInto(table)
    .values({ orgId, [column]: id, labelId, createdAt: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

export async function removeContainerLabel(
  db: Kysely<Database>,
  join: LabelJoin,
  orgId: string,
  id: string,
  labelId: string,
): Promise<boolean> {
  const { table, column } = join
  const result = await (db as Loose)
    .deleteFrom(table)
    .where('orgId', '=', orgId)
    .where(column, '=', id)
    .where('labelId', '=', labelId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** For a list's `labelId` filter: the container (`<table>.id`, `<table>.orgId`) carries the label. */
export function carriesLabel<TB extends 'programs' | 'initiatives'>(
  eb: ExpressionBuilder<Database, TB>,
  join: LabelJoin,
  outer: TB,
  labelId: string,
) {
  const { table, column } = join
  const loose = eb as unknown as ExpressionBuilder<any, any>
  return loose.exists(
    loose
      .selectFrom(`${table} as fl`)
      .select('fl.labelId')
      .whereRef('fl.orgId', '=', `${outer}.orgId`)
      .whereRef(`fl.${column}`, '=', `${outer}.id`)
      .where('fl.labelId', '=', labelId),
  )
}
