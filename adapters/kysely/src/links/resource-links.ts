import type { ActorId, Link, LinkId, LinkParentType, OrgId } from '@workgraph/core'
import type { LinkRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function linkRepo(db: Kysely<Database>): LinkRepo {
  const toLink = (r: Selectable<Database['resourceLinks']>): Link => ({
    id: r.id as LinkId,
    orgId: r.orgId as OrgId,
    parentType: r.parentType as LinkParentType,
    parentId: r.parentId,
    url: r.url,
    title: r.title,
    position: Number(r.position),
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  })
  const ofParent = (orgId: OrgId, parentType: LinkParentType, parentId: string) =>
    db
      .selectFrom('resourceLinks')
      .where('orgId', '=', orgId)
      .where('parentType', '=', parentType)
      .where('parentId', '=', parentId)
  return {
    async insert(link) {
      await db.insertInto('resourceLinks').values(link).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('resourceLinks')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toLink(row) : null
    },
    async list(orgId, parentType, parentId, page) {
      const q = ofParent(orgId, parentType, parentId).selectAll()
      return (await keysetPage(q, page, { sort: 'position', id: 'id' }).execute()).map(toLink)
    },
    async all(orgId, parentType, parentId) {
      const rows = await ofParent(orgId, parentType, parentId)
        .selectAll()
        .orderBy('position')
        .orderBy('id')
        .execute()
      return rows.map(toLink)
    },
    async lastPosition(orgId, parentType, parentId) {
      const row = await ofParent(orgId, parentType, parentId)
        .select((eb) => eb.fn.max('position').as('last'))
        .executeTakeFirst()
      return row?.last === null || row?.last === undefined ? null : Number(row.last)
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('resourceLinks')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('resourceLinks').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
  }
}
