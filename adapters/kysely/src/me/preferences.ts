import type { OrgId } from '@workgraph/core'
import type { PreferenceRepo, StoredPreferences } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function preferenceRepo(db: Kysely<Database>): PreferenceRepo {
  return {
    async get(userId) {
      const row = await db
        .selectFrom('userPreferences')
        .selectAll()
        .where('userId', '=', userId)
        .executeTakeFirst()
      if (!row) return null
      return {
        defaultOrgId: row.defaultOrgId as OrgId | null,
        weekStart: row.weekStart as StoredPreferences['weekStart'],
        dateFormat: row.dateFormat as StoredPreferences['dateFormat'],
        notificationDelivery: row.notificationDelivery as StoredPreferences['notificationDelivery'],
        digestHour: row.digestHour,
        mailKinds: JSON.parse(row.mailKinds),
        updatedAt: iso(row.updatedAt),
      }
    },
    async put(userId, { mailKinds, ...preferences }) {
      const values = { ...preferences, mailKinds: JSON.stringify(mailKinds) }
      await db
        .insertInto('userPreferences')
        .values({ userId, ...values })
        .onConflict((oc) => oc.column('userId').doUpdateSet(values))
        .execute()
    },
  }
}
