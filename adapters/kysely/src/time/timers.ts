import type { MemberId, OrgId, TaskId, UserId } from '@workgraph/core'
import type { TimerRecord, TimerRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function timerRepo(db: Kysely<Database>): TimerRepo {
  return {
    async get(userId) {
      const r = await db.selectFrom('timers').selectAll().where('userId', '=', userId).executeTakeFirst()
      if (!r) return null
      return {
        userId: r.userId as UserId,
        orgId: r.orgId as OrgId,
        memberId: r.memberId as MemberId,
        taskId: r.taskId as TaskId,
        note: r.note,
        startedAt: iso(r.startedAt),
      } satisfies TimerRecord
    },
    async put(timer) {
      await db.deleteFrom('timers').where('userId', '=', timer.userId).execute()
      await db.insertInto('timers').values(timer).execute()
    },
    async delete(userId) {
      const result = await db.deleteFrom('timers').where('userId', '=', userId).executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
