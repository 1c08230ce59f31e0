import type { TaskId } from '@workgraph/core'
import type { Store, TriageSnoozeRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

function triageSnoozeRepo(db: Kysely<Database>): TriageSnoozeRepo {
  return {
    async put(orgId, taskId, snoozedUntil, snoozedBy) {
      await db
        .insertInto('triageSnoozes')
        .values({ orgId, taskId, snoozedUntil, snoozedBy })
        .onConflict((oc) => oc.columns(['orgId', 'taskId']).doUpdateSet({ snoozedUntil, snoozedBy }))
        .execute()
    },
    async clear(orgId, taskId) {
      const r = await db
        .deleteFrom('triageSnoozes')
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
    async ofTasks(orgId, taskIds) {
      if (taskIds.length === 0) return new Map()
      const rows = await db
        .selectFrom('triageSnoozes')
        .select(['taskId', 'snoozedUntil'])
        .where('orgId', '=', orgId)
        .where('taskId', 'in', [...taskIds])
        .execute()
      return new Map(rows.map((r) => [r.taskId as TaskId, iso(r.snoozedUntil)]))
    },
  }
}

/** Triage snoozes. */
export const triageStore = (db: Kysely<Database>) =>
  ({
    triageSnoozes: triageSnoozeRepo(db),
  }) satisfies Partial<Store>
