import type { OperationContext } from './operation.ts'
import { PAGE_LIMIT_DEFAULT, type Page, type PageRequest, toPage } from './pagination.ts'
import { canonicalJson } from './pipeline/canonical.ts'

/**
 * Reads one keyset page. `scope` names the list and its filters: a cursor only works on the list
 * that issued it. `keyOf` gives the sort value of a row (its id breaks ties).
 */
export async function readPage<T extends { id: string }, S extends string>(
  ctx: OperationContext,
  options: {
    scope: unknown
    query: { cursor?: string; limit?: number }
    sort: S
    direction: 'asc' | 'desc'
    keyOf: (row: T) => string | number | null
    fetch: (page: PageRequest<S>) => Promise<T[]>
  },
): Promise<Page<T>> {
  const scope = canonicalJson([options.scope, options.sort, options.direction])
  const limit = options.query.limit ?? PAGE_LIMIT_DEFAULT
  const after = options.query.cursor ? ctx.cursors.decode(scope, options.query.cursor) : null
  const rows = await options.fetch({ sort: options.sort, direction: options.direction, after, limit })
  return toPage(rows, limit, (last) => ctx.cursors.encode(scope, { value: options.keyOf(last), id: last.id }))
}
