import type { OrgId, TaskId } from '@workgraph/core'
import type { TaskList, TaskListKind, TaskRankRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../../driver/fast-path.ts'
import type { Database, Dialect } from '../../schema.ts'
import { visibleTask } from '../../scope.ts'
import { nextNumber } from '../../teams/teams.ts'

const LIST_COLUMN = { board: 'stateId', project: 'projectId', cycle: 'cycleId' } as const
const RANK_COLUMN = { board: 'boardRank', project: 'projectRank', cycle: 'cycleRank' } as const

/** Postgres: the list's highest rank, read with a snapshot of its own (migration 0074). */
const listTop = (orgId: string, kind: TaskListKind, listId: string) =>
  sql<string | null>`task_list_top(${orgId}, ${sql.lit(kind)}, ${listId})`

/**
 * Ranks of tasks in their board column, project and cycle (core tasks/rank/rank.ts). A list is its
 * undeleted tasks, read through the partial unique indexes `tasks_*_rank` (migration 0066), which
 * compare ranks byte-wise on both databases.
 */
export function taskRankRepo(db: Kysely<Database>, dialect: Dialect): TaskRankRepo {
  const inList = (orgId: OrgId, list: TaskList) =>
    db
      .selectFrom('tasks')
      .where('tasks.orgId', '=', orgId)
      .where(`tasks.${LIST_COLUMN[list.kind]}`, '=', list.id)
      .where('tasks.deletedAt', 'is', null)
  /** The list's highest rank, as a scalar subquery named `last<i>`. */
  const lastRank = (orgId: string, list: TaskList, i: number) => {
    const rank = RANK_COLUMN[list.kind]
    return inList(orgId as OrgId, list)
      .select(`tasks.${rank}`)
      .where(`tasks.${rank}`, 'is not', null)
      .orderBy(`tasks.${rank}`, 'desc')
      .limit(1)
      .as(`last${i}`)
  }
  const lastsOf = (row: Record<string, unknown> | undefined, lists: readonly TaskList[]) =>
    lists.map((_, i) => (row?.[`last${i}`] as string | null | undefined) ?? null)
  const lastOf = async (orgId: OrgId, lists: readonly TaskList[]) => {
    if (lists.length === 0) return []
    // One scalar subquery per list, each the top of its rank index.
    // Every create runs it: compiled once per kinds of lists.
    const shape = `taskRanks.lastOf:${lists.map((l) => l.kind).join(',')}`
    const query = compiledOnce(db, shape, [orgId, ...lists.map((l) => l.id)], ([org, ...ids]) =>
      db.selectNoFrom(() => lists.map((list, i) => lastRank(org!, { ...list, id: ids[i]! }, i))),
    )
    const [row] = (await runCompiled(db, query)) as Record<string, string | null>[]
    return lastsOf(row, lists)
  }
  return {
    async places(orgId, taskId) {
      const row = await db
        .selectFrom('tasks')
        .select([
          'id',
          'stateId',
          'projectId',
          'cycleId',
          'boardRank',
          'projectRank',
          'cycleRank',
          'archivedAt',
        ])
        .where('orgId', '=', orgId)
        .where('id', '=', taskId)
        .where('deletedAt', 'is', null)
        .executeTakeFirst()
      if (!row) return null
      const { archivedAt, ...places } = row
      return { ...places, id: places.id as TaskId, archived: archivedAt !== null }
    },
    lastOf,
    async numberAndLastOf(orgId, teamId, lists, locks) {
      const kinds = lists.map((l) => l.kind).join(',')
      const ids = lists.map((l) => l.id)
      if (dialect === 'postgres') {
        // One statement: the team's counter row, then the locks, then each list's top, left to right
        // once the row is locked. `task_list_top` (migration 0074) reads with a snapshot taken after
        // the locks, so it sees every task a previous holder committed; a subquery here would read
        // with the statement's snapshot, taken before the locks were waited for.
        const query = compiledOnce(
          db,
          `taskRanks.numberWithTops:${locks.length}:${kinds}`,
          [orgId, teamId, ...locks, ...ids],
          ([org, team, ...rest]) =>
            nextNumber(db, org!, team!).returning([
              ...rest
                .slice(0, locks.length)
                .map((key, i) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`.as(`lock${i}`)),
              ...lists.map((list, i) => listTop(org!, list.kind, rest[locks.length + i]!).as(`last${i}`)),
            ]),
        )
        const [row] = (await runCompiled(db, query)) as (Record<string, unknown> & { nextNumber: number })[]
        if (!row) throw new Error(`No team ${teamId} to number a task in`)
        return { number: row.nextNumber, lasts: lastsOf(row, lists) }
      }
      // SQLite: one statement. Its write lock serialises writers already (`locks` take none there).
      const query = compiledOnce(
        db,
        `taskRanks.numberAndLastOf:${kinds}`,
        [orgId, teamId, ...ids],
        ([org, team, ...listIds]) =>
          nextNumber(db, org!, team!).returning(
            lists.map((list, i) => lastRank(org!, { ...list, id: listIds[i]! }, i)),
          ),
      )
      const [row] = (await runCompiled(db, query)) as (Record<string, unknown> & { nextNumber: number })[]
      if (!row) throw new Error(`No team ${teamId} to number a task in`)
      return { number: row.nextNumber, lasts: lastsOf(row, lists) }
    },
    async neighbour(orgId, list, of, side, { exceptId, scope }) {
      const rank = RANK_COLUMN[list.kind]
      const direction = side === 'before' ? 'desc' : 'asc'
      let q = inList(orgId, list)
        .select(['tasks.id', `tasks.${rank} as rank`])
        .where((eb) =>
          eb(
            eb.refTuple(`tasks.${rank}`, 'tasks.id'),
            side === 'before' ? '<' : '>',
            eb.tuple(of.rank, of.id),
          ),
        )
      if (exceptId) q = q.where('tasks.id', '!=', exceptId)
      if (scope) {
        q = q.where('tasks.archivedAt', 'is', null)
        if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      }
      const row = await q
        .orderBy(`tasks.${rank}`, direction)
        .orderBy('tasks.id', direction)
        .limit(1)
        .executeTakeFirst()
      return row ? { id: row.id as TaskId, rank: row.rank as string } : null
    },
    async place(orgId, taskId, list, rank, updatedAt) {
      const result = await db
        .updateTable('tasks')
        .set({ [RANK_COLUMN[list.kind]]: rank, updatedAt })
        .where('orgId', '=', orgId)
        .where('id', '=', taskId)
        .where(LIST_COLUMN[list.kind], '=', list.id)
        .where('deletedAt', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
    async ranksOf(orgId, kind: TaskListKind, taskIds) {
      if (taskIds.length === 0) return new Map()
      const rank = RANK_COLUMN[kind]
      const rows = await db
        .selectFrom('tasks')
        .select(['id', `${rank} as rank`])
        .where('orgId', '=', orgId)
        .where('id', 'in', [...taskIds])
        .execute()
      return new Map(rows.map((r) => [r.id as TaskId, (r.rank as string | null) ?? null]))
    },
  }
}
