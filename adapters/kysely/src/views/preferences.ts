import type { ViewDisplayOverrides } from '@workgraph/core'
import type { ViewPreferenceRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

// The view's default is stored under the empty member id, so (org, view, member) stays a plain key.
const memberKey = (memberId: string | null) => memberId ?? ''

export function viewPreferenceRepo(db: Kysely<Database>): ViewPreferenceRepo {
  const row = (orgId: string, viewId: string, memberId: string | null) =>
    db
      .selectFrom('viewPreferences')
      .where('orgId', '=', orgId)
      .where('viewId', '=', viewId)
      .where('memberId', '=', memberKey(memberId))
  return {
    async get(orgId, viewId, memberId) {
      const r = await row(orgId, viewId, memberId).select(['preferences', 'updatedAt']).executeTakeFirst()
      return r
        ? { preferences: json(r.preferences) as ViewDisplayOverrides, updatedAt: iso(r.updatedAt) }
        : null
    },
    async put(orgId, viewId, memberId, preferences, at) {
      const values = { preferences: JSON.stringify(preferences), updatedAt: at }
      await db
        .insertInto('viewPreferences')
        .values({ orgId, viewId, memberId: memberKey(memberId), ...values })
        .onConflict((oc) => oc.columns(['orgId', 'viewId', 'memberId']).doUpdateSet(values))
        .execute()
    },
    async delete(orgId, viewId, memberId) {
      const result = await db
        .deleteFrom('viewPreferences')
        .where('orgId', '=', orgId)
        .where('viewId', '=', viewId)
        .where('memberId', '=', memberKey(memberId))
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
