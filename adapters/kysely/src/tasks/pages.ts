import type { OrgId, PageRequest, ReadScope } from '@workgraph/core'
import type { TaskFilter, TaskSort } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { runRaw } from '../driver/raw-rows.ts'
import type { Database, Dialect } from '../schema.ts'
import { taskPageKeys } from './list.ts'
import type { StoredTaskRow } from './stored-task.ts'
import { taskSelectByKeys } from './task-select.ts'

/**
 * The rows of one page of `tasks.list` per filter, all of one order, in one statement: each filter's
 * page of keys (`taskPageKeys`, ordered and limited on its own, as `list` reads it) is a member of
 * one compound select tagged with its place, and the rows of all of them are read by id together.
 * A task on several pages is on each. The rows are the driver's own (`runRaw`), each with its page's
 * place (`section`) among the columns.
 */
export async function taskPagesRows(
  db: Kysely<Database>,
  dialect: Dialect,
  orgId: OrgId,
  filters: readonly TaskFilter[],
  page: PageRequest<TaskSort>,
  scope: ReadScope,
): Promise<StoredTaskRow[][]> {
  if (filters.length === 0) return []
  // Built without the plugins, as the sides of a page: the outer query applies them to the tree once.
  const bare = db.withoutPlugins()
  const members = filters.map((filter, i) =>
    bare
      .selectFrom(taskPageKeys(db, dialect, orgId, filter, page, scope).as('k'))
      .select([sql.lit(i).as('section'), 'k.sortKey', 'k.id']),
  )
  const [first, ...rest] = members
  const keys = rest.reduce((all, member) => all.unionAll(member), first!)
  const query = taskSelectByKeys(db, orgId, keys as never, page.direction)
    .select(sql<number>`k.section`.as('section'))
    .clearOrderBy()
    .orderBy(sql`k.section`)
    .orderBy('k.sortKey', page.direction)
    .orderBy('k.id', page.direction)
  const rows = await runRaw<StoredTaskRow & { section: number | string }>(db, query.compile())
  const pages: StoredTaskRow[][] = filters.map(() => [])
  for (const row of rows) pages[Number(row.section)]!.push(row)
  return pages
}
