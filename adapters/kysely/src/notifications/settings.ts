import type { NotificationKind } from '@workgraph/core'
import type { NotificationSettingRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function notificationSettingRepo(db: Kysely<Database>): NotificationSettingRepo {
  return {
    async list(orgId, memberId) {
      const rows = await db
        .selectFrom('notificationSettings')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('memberId', '=', memberId)
        .execute()
      return rows.map((r) => ({
        kind: r.kind as NotificationKind,
        enabled: Number(r.enabled) === 1,
        updatedAt: iso(r.updatedAt),
      }))
    },
    async put(orgId, memberId, kind, enabled, at) {
      await db
        .insertInto('notificationSettings')
        .values({ orgId, memberId, kind, enabled: enabled ? 1 : 0, updatedAt: at })
        .onConflict((oc) =>
          oc.columns(['orgId', 'memberId', 'kind']).doUpdateSet({ enabled: enabled ? 1 : 0, updatedAt: at }),
        )
        .execute()
    },
  }
}
