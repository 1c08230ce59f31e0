import type { ConnectionId, MemberId, OrgId } from '@workgraph/core'
import type { ConnectionRecord, ConnectionRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = { [K in keyof Database['connections']]: unknown }

function toConnection(r: Row): ConnectionRecord {
  return {
    id: r.id as ConnectionId,
    orgId: r.orgId as OrgId,
    memberId: r.memberId as MemberId,
    userId: r.userId as string,
    providerId: r.providerId as string,
    status: r.status as ConnectionRecord['status'],
    scopes: json(r.scopes) as string[],
    state: r.state as string | null,
    stateExpiresAt: isoOrNull(r.stateExpiresAt as string | null),
    codeVerifier: r.codeVerifier as string | null,
    accessToken: r.accessToken as string | null,
    refreshToken: r.refreshToken as string | null,
    tokenExpiresAt: isoOrNull(r.tokenExpiresAt as string | null),
    tokenVersion: Number(r.tokenVersion),
    createdAt: iso(r.createdAt as string),
    connectedAt: isoOrNull(r.connectedAt as string | null),
    lastCheckedAt: isoOrNull(r.lastCheckedAt as string | null),
    lastError: r.lastError as string | null,
  }
}

export function connectionRepo(db: Kysely<Database>): ConnectionRepo {
  const rows = (orgId: OrgId) => db.selectFrom('connections').selectAll().where('orgId', '=', orgId)
  return {
    async insert(c) {
      await db
        .insertInto('connections')
        .values({ ...c, scopes: JSON.stringify(c.scopes) })
        .execute()
    },
    async get(orgId, memberId, id) {
      const row = await rows(orgId).where('memberId', '=', memberId).where('id', '=', id).executeTakeFirst()
      return row ? toConnection(row) : null
    },
    async findPendingByState(state) {
      const row = await db
        .selectFrom('connections')
        .selectAll()
        .where('state', '=', state)
        .where('status', '=', 'pending')
        .executeTakeFirst()
      return row ? toConnection(row) : null
    },
    async findForProvider(orgId, memberId, providerId) {
      const row = await rows(orgId)
        .where('memberId', '=', memberId)
        .where('providerId', '=', providerId)
        .where('status', '!=', 'pending')
        .orderBy('id', 'desc')
        .executeTakeFirst()
      return row ? toConnection(row) : null
    },
    async list(orgId, memberId, page) {
      const q = keysetPage(rows(orgId).where('memberId', '=', memberId), page, { sort: 'id', id: 'id' })
      return (await q.execute()).map(toConnection)
    },
    async update(orgId, id, expectedVersion, patch) {
      const { scopes, ...rest } = patch
      const result = await db
        .updateTable('connections')
        .set({
          ...rest,
          ...(scopes ? { scopes: JSON.stringify(scopes) } : {}),
          tokenVersion: expectedVersion + 1,
        })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('tokenVersion', '=', expectedVersion)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },
    async delete(orgId, id) {
      const result = await db
        .deleteFrom('connections')
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numDeletedRows) === 1
    },
    async deleteForProvider(orgId, memberId, providerId, exceptId) {
      await db
        .deleteFrom('connections')
        .where('orgId', '=', orgId)
        .where('memberId', '=', memberId)
        .where('providerId', '=', providerId)
        .where('id', '!=', exceptId)
        .execute()
    },
  }
}
