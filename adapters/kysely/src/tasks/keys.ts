import type { TaskId } from '@workgraph/core'
import type { TaskKeyRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'

/** Task numbers are a 32-bit `integer` column on Postgres. */
const MAX_TASK_NUMBER = 2_147_483_647

export function taskKeyRepo(db: Kysely<Database>): TaskKeyRepo {
  return {
    async resolve(orgId, key) {
      const upper = key.toUpperCase()
      const match = /^([A-Z][A-Z0-9]*)-([1-9][0-9]*)$/.exec(upper)
      if (!match) return null
      const number = Number(match[2])
      // No task number exceeds the integer column (Postgres would refuse the comparison): no such task.
      const current =
        number > MAX_TASK_NUMBER
          ? undefined
          : await db
              .selectFrom('tasks')
              .innerJoin('teams', (j) =>
                j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
              )
              .select('tasks.id')
              .where('tasks.orgId', '=', orgId)
              .where('teams.key', '=', match[1]!)
              .where('tasks.number', '=', number)
              .where('tasks.deletedAt', 'is', null)
              .executeTakeFirst()
      if (current) return current.id as TaskId
      const previous = await db
        .selectFrom('taskPreviousKeys as k')
        .innerJoin('tasks', (j) => j.onRef('tasks.orgId', '=', 'k.orgId').onRef('tasks.id', '=', 'k.taskId'))
        .select('tasks.id')
        .where('k.orgId', '=', orgId)
        .where('k.key', '=', upper)
        .where('tasks.deletedAt', 'is', null)
        .executeTakeFirst()
      return previous ? (previous.id as TaskId) : null
    },
    async addPrevious(orgId, key, taskId, at) {
      await db
        .insertInto('taskPreviousKeys')
        .values({ orgId, key: key.toUpperCase(), taskId, createdAt: at })
        .onConflict((oc) => oc.columns(['orgId', 'key']).doUpdateSet({ taskId, createdAt: at }))
        .execute()
    },
  }
}
