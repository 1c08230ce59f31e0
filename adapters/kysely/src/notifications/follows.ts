import type { MemberId, OrgId } from '@workgraph/core'
import type { MuteRecord, MuteRepo, SubscriptionRecord, SubscriptionRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

type SubRow = Database['notificationSubscriptions'] extends infer T ? { [K in keyof T]: unknown } : never
type MuteRow = Database['notificationMutes'] extends infer T ? { [K in keyof T]: unknown } : never

const toSubscription = (r: SubRow): SubscriptionRecord => ({
  id: r.id as SubscriptionRecord['id'],
  orgId: r.orgId as OrgId,
  memberId: r.memberId as MemberId,
  targetType: r.targetType as SubscriptionRecord['targetType'],
  targetId: r.targetId as string,
  kinds: json(r.kinds),
  active: Number(r.active) === 1,
  createdAt: iso(r.createdAt as string),
  updatedAt: iso(r.updatedAt as string),
})

const toMute = (r: MuteRow): MuteRecord => ({
  id: r.id as MuteRecord['id'],
  orgId: r.orgId as OrgId,
  memberId: r.memberId as MemberId,
  recordType: r.recordType as MuteRecord['recordType'],
  recordId: r.recordId as string,
  until: isoOrNull(r.until as string | null),
  createdAt: iso(r.createdAt as string),
})

export function subscriptionRepo(db: Kysely<Database>): SubscriptionRepo {
  const mine = (orgId: string, memberId: string) =>
    db
      .selectFrom('notificationSubscriptions')
      .selectAll()
      .where('orgId', '=', orgId)
      .where('memberId', '=', memberId)
  return {
    async insert(s) {
      const result = await db
        .insertInto('notificationSubscriptions')
        .values({ ...s, kinds: JSON.stringify(s.kinds), active: s.active ? 1 : 0 })
        .onConflict((oc) => oc.columns(['orgId', 'memberId', 'targetType', 'targetId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async get(orgId, memberId, id) {
      const row = await mine(orgId, memberId).where('id', '=', id).executeTakeFirst()
      return row ? toSubscription(row) : null
    },
    async list(orgId, memberId, page) {
      const rows = await keysetPage(mine(orgId, memberId), page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toSubscription)
    },
    async update(orgId, memberId, id, patch) {
      await db
        .updateTable('notificationSubscriptions')
        .set({ kinds: JSON.stringify(patch.kinds), active: patch.active ? 1 : 0, updatedAt: patch.updatedAt })
        .where('orgId', '=', orgId)
        .where('memberId', '=', memberId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, memberId, id) {
      const result = await db
        .deleteFrom('notificationSubscriptions')
        .where('orgId', '=', orgId)
        .where('memberId', '=', memberId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async onTargets(orgId, targets) {
      if (targets.length === 0) return []
      const rows = await db
        .selectFrom('notificationSubscriptions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('active', '=', 1)
        .where((eb) =>
          eb.or(targets.map((t) => eb.and([eb('targetType', '=', t.type), eb('targetId', '=', t.id)]))),
        )
        .orderBy('id')
        .execute()
      return rows.map(toSubscription)
    },
  }
}

export function muteRepo(db: Kysely<Database>): MuteRepo {
  const mine = (orgId: string, memberId: string) =>
    db.selectFrom('notificationMutes').selectAll().where('orgId', '=', orgId).where('memberId', '=', memberId)
  return {
    async upsert(m) {
      const row = await db
        .insertInto('notificationMutes')
        .values(m)
        .onConflict((oc) =>
          oc.columns(['orgId', 'memberId', 'recordType', 'recordId']).doUpdateSet({ until: m.until }),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return toMute(row)
    },
    async get(orgId, memberId, id) {
      const row = await mine(orgId, memberId).where('id', '=', id).executeTakeFirst()
      return row ? toMute(row) : null
    },
    async list(orgId, memberId, page) {
      const rows = await keysetPage(mine(orgId, memberId), page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toMute)
    },
    async delete(orgId, memberId, id) {
      const result = await db
        .deleteFrom('notificationMutes')
        .where('orgId', '=', orgId)
        .where('memberId', '=', memberId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async find(orgId, memberId, recordType, recordId) {
      const row = await mine(orgId, memberId)
        .where('recordType', '=', recordType)
        .where('recordId', '=', recordId)
        .executeTakeFirst()
      return row ? toMute(row) : null
    },
  }
}
