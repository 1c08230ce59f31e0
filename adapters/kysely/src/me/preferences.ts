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
        updatedAt: iso(row.updatedAt),
      }
    },
    async put(userId, preferences) {
      await db
        .insertInto('userPreferences')
        // `notification_delivery` waits for mail delivery, which will read it: a new row gets the
        // default it always had, and an update leaves what the person chose before alone.
        .values({ userId, ...preferences, notificationDelivery: 'immediate' })
        .onConflict((oc) => oc.column('userId').doUpdateSet(preferences))
        .execute()
    },
  }
}
