import type { ActorId, Domain, EventId, InvitationPolicy, OrgId, TeamId } from '@workgraph/core'
import type { AuditLogRepo, DomainRepo, OrgSettingsRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { int, iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function orgSettingsRepo(db: Kysely<Database>): OrgSettingsRepo {
  return {
    async get(orgId) {
      const row = await db.selectFrom('orgSettings').selectAll().where('orgId', '=', orgId).executeTakeFirst()
      if (!row) return null
      return {
        orgId: row.orgId as OrgId,
        defaultTeamId: row.defaultTeamId as TeamId | null,
        invitationPolicy: row.invitationPolicy as InvitationPolicy,
        updatedAt: isoOrNull(row.updatedAt),
      }
    },
    async put(settings) {
      await db
        .insertInto('orgSettings')
        .values(settings)
        .onConflict((oc) =>
          oc.column('orgId').doUpdateSet({
            defaultTeamId: settings.defaultTeamId,
            invitationPolicy: settings.invitationPolicy,
            updatedAt: settings.updatedAt,
          }),
        )
        .execute()
    },
  }
}

function toDomain(r: Selectable<Database['orgDomains']>): Domain {
  return {
    id: r.id as Domain['id'],
    orgId: r.orgId as OrgId,
    domain: r.domain,
    status: r.status as Domain['status'],
    txtRecord: { name: r.txtName, type: 'TXT', value: r.txtValue },
    lastCheckedAt: isoOrNull(r.lastCheckedAt),
    lastCheckError: r.lastCheckError,
    verifiedAt: isoOrNull(r.verifiedAt),
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
  }
}

export function domainRepo(db: Kysely<Database>): DomainRepo {
  return {
    async insert({ txtRecord, ...domain }) {
      const result = await db
        .insertInto('orgDomains')
        .values({ ...domain, txtName: txtRecord.name, txtValue: txtRecord.value })
        .onConflict((oc) => oc.columns(['orgId', 'domain']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('orgDomains')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toDomain(row) : null
    },
    async list(orgId, filter, page) {
      let q = db.selectFrom('orgDomains').selectAll().where('orgId', '=', orgId)
      if (filter.status) q = q.where('status', '=', filter.status)
      const rows = await keysetPage(q, page, { sort: 'domain', id: 'id' }).execute()
      return rows.map(toDomain)
    },
    async update(orgId, id, patch) {
      await db.updateTable('orgDomains').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('orgDomains').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async isVerified(orgId, domain) {
      const row = await db
        .selectFrom('orgDomains')
        .select('id')
        .where('orgId', '=', orgId)
        .where('domain', '=', domain)
        .where('status', '=', 'verified')
        .executeTakeFirst()
      return row !== undefined
    },
  }
}

export function auditLogRepo(db: Kysely<Database>): AuditLogRepo {
  return {
    async list(orgId, filter, page) {
      if (filter.kinds.length === 0) return []
      let q = db
        .selectFrom('events')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('kind', 'in', [...filter.kinds])
      if (filter.actorId) q = q.where('actorId', '=', filter.actorId)
      if (filter.resourceId) q = q.where('resourceId', '=', filter.resourceId)
      if (filter.since) q = q.where('createdAt', '>=', filter.since)
      if (filter.until) q = q.where('createdAt', '<', filter.until)
      const rows = await keysetPage(q, page, { sort: 'seq', id: 'id' }).execute()
      return rows.map((r) => ({
        id: r.id as EventId,
        seq: int(r.seq),
        kind: r.kind,
        actorId: r.actorId as ActorId | null,
        resourceType: r.resourceType,
        resourceId: r.resourceId,
        data: json(r.data),
        createdAt: iso(r.createdAt),
      }))
    },
  }
}
