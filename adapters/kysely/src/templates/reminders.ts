import type { MemberId, OrgId, Reminder, ReminderId, TaskId } from '@workgraph/core'
import type { ReminderRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = { [K in keyof Database['taskReminders']]: unknown }

function toReminder(r: Row): Reminder & { orgId: OrgId } {
  return {
    orgId: r.orgId as OrgId,
    id: r.id as ReminderId,
    taskId: r.taskId as TaskId,
    memberId: r.memberId as MemberId,
    remindAt: iso(r.remindAt as string),
    note: r.note as string | null,
    deliveredAt: isoOrNull(r.deliveredAt as string | null),
    createdAt: iso(r.createdAt as string),
  }
}

const withoutOrg = ({ orgId: _orgId, ...r }: Reminder & { orgId: OrgId }): Reminder => r

export function reminderRepo(db: Kysely<Database>): ReminderRepo {
  return {
    async insert(reminder) {
      await db.insertInto('taskReminders').values(reminder).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('taskReminders')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toReminder(row) : null
    },
    async list(orgId, taskId, memberId, page) {
      const rows = await keysetPage(
        db
          .selectFrom('taskReminders')
          .selectAll()
          .where('orgId', '=', orgId)
          .where('taskId', '=', taskId)
          .where('memberId', '=', memberId),
        page,
        { sort: 'remindAt', id: 'id' },
      ).execute()
      return rows.map((r) => withoutOrg(toReminder(r)))
    },
    async delete(orgId, id) {
      await db.deleteFrom('taskReminders').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async due(now, after, limit) {
      let q = db
        .selectFrom('taskReminders as r')
        .innerJoin('orgs as o', 'o.id', 'r.orgId')
        .selectAll('r')
        .where('r.deliveredAt', 'is', null)
        .where('r.remindAt', '<=', now)
        .where('o.archivedAt', 'is', null)
      if (after) q = q.where((eb) => eb(eb.refTuple('r.orgId', 'r.id'), '>', eb.tuple(after.orgId, after.id)))
      const rows = await q.orderBy('r.orgId').orderBy('r.id').limit(limit).execute()
      return rows.map(toReminder)
    },
    async markDelivered(orgId, id, at) {
      const result = await db
        .updateTable('taskReminders')
        .set({ deliveredAt: at })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('deliveredAt', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
