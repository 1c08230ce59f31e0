import type { MemberId, OrgId, TeamId, View, ViewFilter, ViewId } from '@workgraph/core'
import type { ViewRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

const toView = (r: Selectable<Database['savedViews']>): View => ({
  id: r.id as ViewId,
  orgId: r.orgId as OrgId,
  name: r.name,
  description: r.description,
  model: r.model as View['model'],
  filter: json(r.filter) as ViewFilter,
  visibility: r.teamId ? 'team' : 'personal',
  teamId: r.teamId as TeamId | null,
  ownerId: r.ownerId as MemberId,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
})

export function viewRepo(db: Kysely<Database>): ViewRepo {
  // The viewer's personal views, and team views where the scope reaches the team.
  const visible = (orgId: OrgId, viewer: Parameters<ViewRepo['get']>[2]) =>
    db
      .selectFrom('savedViews')
      .selectAll()
      .where('orgId', '=', orgId)
      .where((eb) =>
        eb.or([
          eb.and([eb('teamId', 'is', null), eb('ownerId', '=', viewer.memberId)]),
          viewer.scope.orgWide ? eb('teamId', 'is not', null) : inVisibleTeams(eb, 'teamId', viewer.scope),
        ]),
      )
  return {
    async insert(view) {
      const { visibility: _v, ...row } = view
      await db
        .insertInto('savedViews')
        .values({ ...row, filter: JSON.stringify(view.filter) })
        .execute()
    },
    async get(orgId, id, viewer) {
      const row = await visible(orgId, viewer).where('id', '=', id).executeTakeFirst()
      return row ? toView(row) : null
    },
    async list(orgId, viewer, page) {
      const rows = await keysetPage(visible(orgId, viewer), page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toView)
    },
    async update(orgId, id, patch) {
      const { visibility: _v, filter, ...rest } = patch
      await db
        .updateTable('savedViews')
        .set({ ...rest, ...(filter ? { filter: JSON.stringify(filter) } : {}) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('savedViews').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
  }
}
