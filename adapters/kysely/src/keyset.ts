import type { PageRequest } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'

/**
 * Applies a keyset page: rows strictly after the cursor's (sort value, id), ordered by both,
 * `limit + 1` of them so the caller knows whether another page exists. Every page costs an index
 * seek, whatever its depth. `sort` is a column, or an expression (a rank, a null replaced by a
 * sentinel) that is never null: row-value comparison skips rows whose key is null.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  columns: { sort: string | Expression<unknown>; id: string },
): SelectQueryBuilder<DB, TB, O> {
  const op = page.direction === 'asc' ? '>' : '<'
  const { sort } = columns
  let q = query
  if (page.after) {
    const { value, id } = page.after
    if (typeof sort !== 'string') {
      q = q.where(sql<SqlBool>`(${sort}, ${sql.ref(columns.id)}) ${sql.raw(op)} (${value}, ${id})`)
    } else {
      q =
        sort === columns.id
          ? q.where(columns.id as never, op, id as never)
          : q.where((eb: ExpressionBuilder<DB, TB>) =>
              eb(eb.refTuple(sort as never, columns.id as never), op, eb.tuple(value as never, id as never)),
            )
    }
  }
  if (sort !== columns.id) q = q.orderBy(sort as never, page.direction)
  return q.orderBy(columns.id as never, page.direction).limit(page.limit + 1)
}
