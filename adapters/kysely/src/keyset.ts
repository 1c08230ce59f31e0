import type { PageRequest } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'

/** A page's sort column or expression and its tie-breaking id column. */
export interface KeysetColumns {
  sort: string | Expression<unknown>
  id: string
}

/**
 * Applies a keyset page: rows strictly after the cursor's (sort value, id), ordered by both,
 * `limit + 1` of them so the caller knows whether another page exists. Every page costs an index
 * seek, whatever its depth. `sort` is a column, or an expression (a rank, a null replaced by a
 * sentinel) that is never null: row-value comparison skips rows whose key is null.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  columns: KeysetColumns,
): SelectQueryBuilder<DB, TB, O> {
  const { sort } = columns
  let q = afterCursor(query, page, columns)
  if (sort !== columns.id) q = q.orderBy(sort as never, page.direction)
  return q.orderBy(columns.id as never, page.direction).limit(page.limit + 1)
}

/**
 * The rows strictly after the page's cursor (all rows on a first page), neither ordered nor limited:
 * for a member of a compound select, which the compound orders and limits as a whole.
 */
export function afterCursor<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  columns: KeysetColumns,
): SelectQueryBuilder<DB, TB, O> {
  if (!page.after) return query
  const op = page.direction === 'asc' ? '>' : '<'
  const { sort } = columns
  const { value, id } = page.after
  if (typeof sort !== 'string')
    return query.where(sql<SqlBool>`(${sort}, ${sql.ref(columns.id)}) ${sql.raw(op)} (${value}, ${id})`)
  if (sort === columns.id) return query.where(columns.id as never, op, id as never)
  return query.where((eb: ExpressionBuilder<DB, TB>) =>
    eb(eb.refTuple(sort as never, columns.id as never), op, eb.tuple(value as never, id as never)),
  )
}
