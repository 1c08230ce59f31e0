import type { OrgId, ProjectStatus, ProjectStatusId } from '@workgraph/core'
import type { ProjectStatusRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso, isoOrNull } from '../../normalize.ts'
import type { Database } from '../../schema.ts'

type Row = { [K in keyof Database['projectStatuses']]: unknown }

const nameKey = (name: string) => name.normalize('NFC').toLowerCase()

function toStatus(r: Row): ProjectStatus {
  return {
    id: r.id as ProjectStatusId,
    orgId: r.orgId as OrgId,
    name: r.name as string,
    category: r.category as ProjectStatus['category'],
    color: r.color as string,
    description: r.description as string | null,
    position: Number(r.position),
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

export function projectStatusRepo(db: Kysely<Database>): ProjectStatusRepo {
  const ofOrg = (orgId: OrgId) => db.selectFrom('projectStatuses').selectAll().where('orgId', '=', orgId)
  return {
    async seed(orgId, statuses) {
      for (const { seed, ...s } of statuses) {
        await db
          .insertInto('projectStatuses')
          .values({ ...s, orgId, seed, nameKey: nameKey(s.name) })
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
    },
    async isSeeded(orgId) {
      const row = await db
        .selectFrom('projectStatuses')
        .select('id')
        .where('orgId', '=', orgId)
        .where('seed', 'is not', null)
        .limit(1)
        .executeTakeFirst()
      return Boolean(row)
    },
    async insert(status) {
      await db
        .insertInto('projectStatuses')
        .values({ ...status, nameKey: nameKey(status.name), seed: null })
        .execute()
    },
    async get(orgId, id) {
      const row = await ofOrg(orgId).where('id', '=', id).executeTakeFirst()
      return row ? toStatus(row) : null
    },
    async list(orgId, filter, page) {
      let q = ofOrg(orgId)
      if (filter.archived === true) q = q.where('archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('archivedAt', 'is', null)
      const rows = await keysetPage(q, page, { sort: 'position', id: 'id' }).execute()
      return rows.map(toStatus)
    },
    async active(orgId) {
      const rows = await ofOrg(orgId)
        .where('archivedAt', 'is', null)
        .orderBy('position')
        .orderBy('id')
        .execute()
      return rows.map(toStatus)
    },
    async findByName(orgId, name, exceptId) {
      let q = ofOrg(orgId).where('nameKey', '=', nameKey(name))
      if (exceptId) q = q.where('id', '!=', exceptId)
      const row = await q.executeTakeFirst()
      return row ? toStatus(row) : null
    },
    async nextPosition(orgId) {
      const row = await db
        .selectFrom('projectStatuses')
        .select((eb) => eb.fn.max('position').as('max'))
        .where('orgId', '=', orgId)
        .executeTakeFirst()
      return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1
    },
    async update(orgId, id, patch) {
      const values = patch.name === undefined ? patch : { ...patch, nameKey: nameKey(patch.name) }
      await db
        .updateTable('projectStatuses')
        .set(values)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async countProjects(orgId, id) {
      const row = await db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('orgId', '=', orgId)
        .where('statusId', '=', id)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
  }
}
