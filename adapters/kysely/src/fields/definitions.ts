import type { CustomField, CustomFieldId, OrgId } from '@workgraph/core'
import type { CustomFieldRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = { [K in keyof Database['customFields']]: unknown }

export function toField(r: Row): CustomField {
  return {
    id: r.id as CustomFieldId,
    orgId: r.orgId as OrgId,
    name: r.name as string,
    description: r.description as string | null,
    type: r.type as CustomField['type'],
    recordKinds: json(r.recordKinds),
    teamIds: json(r.teamIds),
    options: json(r.options),
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

export function customFieldRepo(db: Kysely<Database>): CustomFieldRepo {
  const select = (orgId: OrgId) => db.selectFrom('customFields').selectAll().where('orgId', '=', orgId)
  return {
    async insert(field) {
      await db
        .insertInto('customFields')
        .values({
          ...field,
          recordKinds: JSON.stringify(field.recordKinds),
          teamIds: JSON.stringify(field.teamIds),
          options: JSON.stringify(field.options),
        })
        .execute()
    },
    async get(orgId, id) {
      const row = await select(orgId).where('id', '=', id).executeTakeFirst()
      return row ? toField(row) : null
    },
    async getMany(orgId, ids) {
      if (ids.length === 0) return []
      const rows = await select(orgId)
        .where('id', 'in', [...ids])
        .execute()
      return rows.map(toField)
    },
    async findByName(orgId, name) {
      const row = await select(orgId)
        .where('archivedAt', 'is', null)
        .where(sql`lower(${sql.ref('name')})`, '=', name.trim().toLowerCase())
        .executeTakeFirst()
      return row ? toField(row) : null
    },
    async list(orgId, filter, page) {
      let q = select(orgId)
      if (filter.archived === true) q = q.where('archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('archivedAt', 'is', null)
      // JSON arrays of ids: a quoted id is matched exactly (ids hold no quote nor wildcard but `_`, escaped).
      if (filter.teamId) {
        const pattern = `%"${filter.teamId.replace(/_/g, '\\_')}"%`
        q = q.where((eb) =>
          eb.or([eb('teamIds', '=', '[]'), sql<boolean>`${sql.ref('teamIds')} like ${pattern} escape '\\'`]),
        )
      }
      if (filter.recordKind) q = q.where('recordKinds', 'like', `%"${filter.recordKind}"%`)
      const rows = await keysetPage(q, page, { sort: 'name', id: 'id' }).execute()
      return rows.map(toField)
    },
    async update(orgId, id, patch) {
      const { teamIds, options, ...rest } = patch
      await db
        .updateTable('customFields')
        .set({
          ...rest,
          ...(teamIds ? { teamIds: JSON.stringify(teamIds) } : {}),
          ...(options ? { options: JSON.stringify(options) } : {}),
        })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
  }
}
