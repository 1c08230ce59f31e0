import type { OrgId, TaskId } from '@workgraph/core'
import type { TaskList, TaskListKind, TaskRankRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../../fast-path.ts'
import type { Database } from '../../schema.ts'
import { visibleTask } from '../../scope.ts'

const LIST_COLUMN = { board: 'stateId', project: 'projectId', cycle: 'cycleId' } as const
const RANK_COLUMN = { board: 'boardRank', project: 'projectRank', cycle: 'cycleRank' } as const

/**
 * Ranks of tasks in their board column, project and cycle (core tasks/rank/rank.ts). A list is its
 * undeleted tasks, read through the partial unique indexes `tasks_*_rank` (migration 0066), which
 * compare ranks byte-wise on both databases.
 */
export function taskRankRepo(db: Kysely<Database>): TaskRankRepo {
  const inList = (orgId: OrgId, list: TaskList) =>
    db
      .selectFrom('tasks')
      .where('tasks.orgId', '=', orgId)
      .where(`tasks.${LIST_COLUMN[list.kind]}`, '=', list.id)
      .where('tasks.deletedAt', 'is', null)
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
    async lastOf(orgId, lists) {
      if (lists.length === 0) return []
      // One scalar subquery per list, each the top of its rank index.
      // Every create runs it: compiled once per kinds of lists.
      const shape = `taskRanks.lastOf:${lists.map((l) => l.kind).join(',')}`
      const query = compiledOnce(db, shape, [orgId, ...lists.map((l) => l.id)], ([org, ...ids]) =>
        db.selectNoFrom(() =>
          lists.map((list, i) => {
            const rank = RANK_COLUMN[list.kind]
            return inList(org as OrgId, { ...list, id: ids[i]! })
              .select(`tasks.${rank}`)
              .where(`tasks.${rank}`, 'is not', null)
              .orderBy(`tasks.${rank}`, 'desc')
              .limit(1)
              .as(`last${i}`)
          }),
        ),
      )
      const [row] = (await runCompiled(db, query)) as Record<string, string | null>[]
      return lists.map((_, i) => row?.[`last${i}`] ?? null)
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
