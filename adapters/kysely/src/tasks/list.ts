import type { OrgId, PageRequest, ReadScope } from '@workgraph/core'
import type { TaskFilter, TaskSort } from '@workgraph/core/storage'
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely'
import { compiledOnce } from '../driver/fast-path.ts'
import { type ArrayRows, runArrayRows } from '../driver/raw-rows.ts'
import { afterCursor, keysetPage } from '../keyset.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams, visibleTask } from '../scope.ts'
import { scopeArgs, scopeShape, scopeStandIn } from './compiled-scope.ts'
import { fieldSortKey } from './fields.ts'
import { applyTaskFilters, taskSortKey } from './search.ts'
import type { StoredTaskRow } from './stored-task.ts'
import { taskSelect, taskSelectByKeys } from './task-select.ts'

type Visible = (eb: ExpressionBuilder<Database, 'tasks'>) => Expression<SqlBool>

/**
 * Up to this many granted projects, each is read as its own side (on Postgres, one lateral page per
 * project); past it, one side reads them all with `project_id in (…)`, which the planners walk in
 * page order over the org (then a reader sees enough of it for the walk to end soon). Every side
 * costs a seek to start: with no bound, readers of 100–374 projects took 2.2 ms of CPU on SQLite and
 * 5.3 ms on Postgres, against 0.7 and 3.9 ms with the one side; below it the sides win (a reader of
 * 17–39 projects: 0.7 against 0.9 ms on SQLite). docs/performance-log.md.
 */
const PROJECT_SIDES = 32

/**
 * One page of `tasks.list`: `limit + 1` rows after the cursor, in the page's order.
 *
 * A reader with project grants sees `team_id in (…) or project_id in (…)`. With no team or one,
 * neither planner reads that `or` in page order through an index (SQLite walked the org's tasks:
 * 28 ms of CPU for a guest with two projects, against 0.3 ms for one team; docs/performance-log.md), so
 * it is read in sides, each an index range in page order, and merged: the team's tasks
 * (`tasks_team_*`) and each granted project's tasks outside that team (`tasks_project_*`). The
 * sides are disjoint and together are exactly the visible tasks, so the merged page is exact. The
 * sides select only the sort key and the id, in one compound select ordered and limited as a whole,
 * which both planners read lazily; then the page's rows are read by id with their team and state.
 * On Postgres the projects' sides are one lateral member over the list of project ids, so the plan
 * does not grow with the number of projects. The rows are the driver's own (`runArrayRows`: arrays on
 * SQLite), for the caller to build each task from once (`tasksFromStored`).
 * (Sides that each read a page of full rows, as subqueries, cost 2–6 times as much: SQLite filled
 * and sorted a page per side.)
 */
export async function taskPageRows(
  db: Kysely<Database>,
  dialect: Dialect,
  orgId: OrgId,
  filter: TaskFilter,
  page: PageRequest<TaskSort>,
  scope: ReadScope,
): Promise<ArrayRows | StoredTaskRow[]> {
  const sideOf = (o: OrgId, p: PageRequest<TaskSort>, s: ReadScope, visible: Visible | null, from = db) => {
    const sort = filter.sortField ? fieldSortKey(o, filter.sortField, p.direction) : taskSortKey(p)
    let q = taskSelect(from, s, 'after').where('tasks.orgId', '=', o)
    if (visible) q = q.where(visible)
    q = applyListFilters(q, o, filter)
    q = applyTaskFilters(q, o, filter, s, dialect)
    return keysetPage(q, p, { sort, id: 'tasks.id' })
  }
  const side = (visible: Visible | null, from = db) => sideOf(orgId, page, scope, visible, from)
  const plain =
    !filter.sortField && Object.entries(filter).every(([k, v]) => k === 'archived' || v === undefined)
  if (oneSide(scope)) {
    const whole = (s: ReadScope): Visible | null => (s.orgWide ? null : (eb) => visibleTask(eb, 'tasks', s))
    if (!plain) return runArrayRows<StoredTaskRow>(db, dialect, side(whole(scope)).compile())
    // The plain list (no filter but `archived`, a client's usual first request) is built and compiled
    // once per sort, page size, first page or not, and scope shape (`compiledOnce`).
    const after = page.after ? [page.after.value, page.after.id] : []
    const shape = `tasks.list:${filter.archived}:${page.sort}:${page.direction}:${page.limit}:${after.length}:${scopeShape(scope)}`
    return runArrayRows<StoredTaskRow>(
      db,
      dialect,
      compiledOnce(db, shape, [orgId, ...after, ...scopeArgs(scope)], (args) => {
        const standIn = scopeStandIn(scope, args.slice(1 + after.length))
        const p = { ...page, after: page.after ? { value: args[1]!, id: args[2]! } : null }
        return sideOf(args[0] as OrgId, p, standIn, whole(standIn))
      }),
    )
  }
  const mergedSides = (o: OrgId, p: PageRequest<TaskSort>, s: ReadScope) =>
    taskSelectByKeys(db, o, taskPageKeys(db, dialect, o, filter, p, s) as never, p.direction)
  if (!plain) return runArrayRows<StoredTaskRow>(db, dialect, mergedSides(orgId, page, scope).compile())
  // Plain lists merge the same sides for every reader with as many teams and projects: built and
  // compiled once per such shape, as the single query above (Kysely builds each side for about 0.2 ms).
  const after = page.after ? [page.after.value, page.after.id] : []
  const shape = `tasks.sides:${filter.archived}:${page.sort}:${page.direction}:${page.limit}:${after.length}:${scopeShape(scope)}`
  return runArrayRows<StoredTaskRow>(
    db,
    dialect,
    compiledOnce(db, shape, [orgId, ...after, ...scopeArgs(scope)], (args) => {
      const p = { ...page, after: page.after ? { value: args[1]!, id: args[2]! } : null }
      return mergedSides(args[0] as OrgId, p, scopeStandIn(scope, args.slice(1 + after.length)))
    }),
  )
}

/** Whether the scope's visible tasks are one index range in page order (one query, no sides). */
function oneSide(scope: ReadScope): boolean {
  // With two or more teams the team list alone already has both planners walk the org's keyset
  // index in page order (neither reads an `in` list of several teams in order); the projects only
  // add matches to that walk, so one query with the `or` costs what the teams cost alone.
  // A reader of one project and no team is one index range in page order too (`project_id in (p)`,
  // one value), read directly like a one-team reader's.
  const oneRange = scope.teamIds.length === 0 && scope.projectIds.length === 1
  return scope.orgWide || scope.projectIds.length === 0 || scope.teamIds.length >= 2 || oneRange
}

/**
 * The sort keys and ids of one page of `tasks.list` (`sortKey`, `id`), `limit + 1` of them after the
 * cursor, ordered and limited: one query for a scope of one side (`oneSide`), else the team's side
 * and each granted project's side outside that team, merged in page order. The page's rows are
 * then read by id (`taskSelectByKeys`).
 */
export function taskPageKeys(
  db: Kysely<Database>,
  dialect: Dialect,
  o: OrgId,
  filter: TaskFilter,
  p: PageRequest<TaskSort>,
  s: ReadScope,
) {
  const sort = filter.sortField ? fieldSortKey(o, filter.sortField, p.direction) : taskSortKey(p)
  const sortKey = typeof sort === 'string' ? sql.ref(sort) : sql<unknown>`${sort}`
  // The sides are built without the plugins: the page's query applies them (camel case) to the
  // whole tree once, where each side would otherwise be transformed on its own first as well.
  const bare = db.withoutPlugins()
  // A side's keys: the tasks the predicate lets through, with the filters and the cursor applied.
  const member = (visible: Visible | null) => {
    let q = bare.selectFrom('tasks') as unknown as ListQuery
    // Only the state filter needs a joined table; the rows' team and state are joined for the page.
    if (filter.stateCategory?.length)
      q = q.innerJoin('workflowStates as s', (j) =>
        j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
      ) as unknown as ListQuery
    q = q.where('tasks.deletedAt', 'is', null).where('tasks.orgId', '=', o)
    if (visible) q = q.where(visible)
    q = applyListFilters(q, o, filter)
    q = applyTaskFilters(q, o, filter, s, dialect)
    return q.select([sortKey.as('sortKey'), 'tasks.id as id'])
  }
  if (oneSide(s))
    return keysetPage(member(s.orgWide ? null : (eb) => visibleTask(eb, 'tasks', s)), p, {
      sort,
      id: 'tasks.id',
    })
  const keys = (visible: Visible) => {
    const keysOf = member(visible)
    // Postgres plans a bare member without an ordered path (it appended every side's rows and
    // sorted them all); as a subquery ordered and limited to the page, each is a `Limit` over an
    // index scan under a `Merge Append`. SQLite rejects `order by` on a bare member and reads bare
    // ones lazily; as subqueries it filled and sorted each.
    if (dialect === 'postgres')
      return bare
        .selectFrom(keysetPage(keysOf, p, { sort, id: 'tasks.id' }).as('side'))
        .selectAll() as unknown as typeof keysOf
    return afterCursor(keysOf, p, { sort, id: 'tasks.id' })
  }
  const outsideTeams = (eb: ExpressionBuilder<Database, 'tasks'>) =>
    s.teamIds.length === 0 ? sql<SqlBool>`1 = 1` : eb('tasks.teamId', 'not in', [...s.teamIds])
  const sides: ReturnType<typeof keys>[] = []
  if (s.projectIds.length > PROJECT_SIDES)
    sides.push(keys((eb) => eb.and([eb('tasks.projectId', 'in', [...s.projectIds]), outsideTeams(eb)])))
  else if (dialect === 'postgres') {
    // On Postgres the projects are one member: a lateral page of keys per project, over the list
    // of ids. Planning it costs the same for any number of projects, where one side per project
    // cost Postgres about 0.06 ms of planning each (1.0 ms for 15, 1.7 ms for 28, against 0.2 ms for
    // a one-team page; docs/performance-log.md).
    const ids = sql<string>`unnest(array[${sql.join(s.projectIds)}]::text[])`.as('p')
    const perProject = keysetPage(
      member((eb) => eb.and([eb('tasks.projectId', '=', sql.ref<string>('p.p')), outsideTeams(eb)])),
      p,
      { sort, id: 'tasks.id' },
    ).as('side')
    sides.push(
      bare
        .selectFrom(ids)
        .crossJoinLateral(() => perProject as never)
        .select(['side.sortKey' as never, 'side.id' as never]) as unknown as ReturnType<typeof keys>,
    )
  } else
    for (const id of s.projectIds)
      sides.push(keys((eb) => eb.and([eb('tasks.projectId', '=', id), outsideTeams(eb)])))
  if (s.teamIds.length > 0) sides.unshift(keys((eb) => inVisibleTeams(eb, 'tasks.teamId', s)))
  const [first, ...rest] = sides
  // One compound select, ordered and limited as a whole; both planners read the members lazily
  // in page order (SQLite's `MERGE (UNION ALL)` of co-routines, Postgres's `Merge Append`) and
  // stop when the page is full. The limit is a literal: with `limit ?` SQLite's merge did not bound
  // its members by it, and 28 sides cost 0.62 ms of CPU in SQLite instead of 0.35 (a page size is a
  // validated integer; docs/performance-log.md).
  return rest
    .reduce((all, next) => all.unionAll(next), first!)
    .orderBy('sortKey', p.direction)
    .orderBy('id', p.direction)
    .limit(sql.lit(pageSize(p.limit + 1)))
}

/** A page size as an SQL literal must be a plain positive integer, whatever the caller checked. */
function pageSize(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`not a page size: ${n}`)
  return n
}

/** The tasks table, with the state joined as `s` when the state filter needs it. */
type ListQuery = SelectQueryBuilder<Database & { s: Database['workflowStates'] }, 'tasks' | 's', unknown>

/** The equality and set filters of `tasks.list` (the search and range ones are `applyTaskFilters`). */
function applyListFilters<Q>(q: Q, orgId: OrgId, filter: TaskFilter): Q {
  let out = q as unknown as ListQuery
  if (filter.teamId) out = out.where('tasks.teamId', '=', filter.teamId)
  if (filter.stateId) out = out.where('tasks.stateId', '=', filter.stateId)
  if (filter.stateCategory?.length) out = out.where('s.category', 'in', filter.stateCategory)
  if (filter.assigneeId === null) out = out.where('tasks.assigneeId', 'is', null)
  else if (filter.assigneeId) out = out.where('tasks.assigneeId', '=', filter.assigneeId)
  if (filter.priority) out = out.where('tasks.priority', '=', filter.priority)
  if (filter.cycleId === null) out = out.where('tasks.cycleId', 'is', null)
  else if (filter.cycleId) out = out.where('tasks.cycleId', '=', filter.cycleId)
  if (filter.projectId === null) out = out.where('tasks.projectId', 'is', null)
  else if (filter.projectId) out = out.where('tasks.projectId', '=', filter.projectId)
  if (filter.milestoneId === null) out = out.where('tasks.milestoneId', 'is', null)
  else if (filter.milestoneId) out = out.where('tasks.milestoneId', '=', filter.milestoneId)
  if (filter.updatedSince) out = out.where('tasks.updatedAt', '>=', filter.updatedSince)
  if (filter.archived === true) out = out.where('tasks.archivedAt', 'is not', null)
  if (filter.archived === false) out = out.where('tasks.archivedAt', 'is', null)
  if (filter.parentId) out = out.where('tasks.parentId', '=', filter.parentId)
  if (filter.ids)
    out =
      filter.ids.length === 0 ? out.where(sql<SqlBool>`1 = 0`) : out.where('tasks.id', 'in', [...filter.ids])
  // A task's blockers, or the tasks it blocks: one side of its dependency rows.
  const linked = (pick: 'blockerId' | 'blockedId', other: 'blockedId' | 'blockerId', taskId: string) =>
    out.where('tasks.id', 'in', (eb) =>
      eb.selectFrom('taskDependencies').select(pick).where('orgId', '=', orgId).where(other, '=', taskId),
    )
  if (filter.awakeAt) {
    const awakeAt = filter.awakeAt
    out = out.where('tasks.id', 'not in', (eb) =>
      eb
        .selectFrom('triageSnoozes')
        .select('taskId')
        .where('orgId', '=', orgId)
        .where('snoozedUntil', '>', awakeAt),
    )
  }
  if (filter.blockersOf) out = linked('blockerId', 'blockedId', filter.blockersOf)
  if (filter.blockedBy) out = linked('blockedId', 'blockerId', filter.blockedBy)
  return out as unknown as Q
}
