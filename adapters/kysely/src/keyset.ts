import type { PageRequest } from '@workgraph/core'
import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'

/**
 * Applies a keyset page: rows strictly after the cursor's (sort value, id), ordered by both,
 * `limit + 1` of them so the caller knows whether another page exists. Every page costs an index
 * seek, whatever its depth.
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
  columns: { sort: string; id: string },
): SelectQueryBuilder<DB, TB, O> {
  const op = page.direction === 'asc' ? '>' : '<'
  let q = query
  if (page.after) {
    const { value, id } = page.after
    q =
      columns.sort === columns.id
        ? q.where(columns.id as never, op, id as never)
        : q.where((eb: ExpressionBuilder<DB, TB>) =>
            eb(
              eb.refTuple(columns.sort as never, columns.id as never),
              op,
              eb.tuple(value as never, id as never),
            ),
          )
  }
  if (columns.sort !== columns.id) q = q.orderBy(columns.sort as never, page.direction)
  return q.orderBy(columns.id as never, page.direction).limit(page.limit + 1)
}
