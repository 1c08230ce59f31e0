import {
  type AllocationId,
  type AllocationUnit,
  type MemberId,
  type OrgId,
  type ProjectId,
  type ReadScope,
  UNSCOPED,
} from '@workgraph/core'
import type { AllocationRecord, AllocationRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { int, iso } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleProjectRef } from '../scope.ts'

type Row = { [K in keyof Database['allocations']]: unknown }

const toAllocation = (r: Row): AllocationRecord => ({
  id: r.id as AllocationId,
  orgId: r.orgId as OrgId,
  projectId: r.projectId as ProjectId,
  memberId: r.memberId as MemberId,
  startDate: r.startDate as string,
  endDate: r.endDate as string,
  unit: r.unit as AllocationUnit,
  amount: int(r.amount as number),
  note: r.note as string | null,
  creatorId: r.creatorId as MemberId,
  createdAt: iso(r.createdAt as string),
  updatedAt: iso(r.updatedAt as string),
})

export function allocationRepo(db: Kysely<Database>): AllocationRepo {
  /** Allocations on existing projects, narrowed to the projects the scope may view. */
  const live = (orgId: OrgId, scope: ReadScope) => {
    let q = db
      .selectFrom('allocations as a')
      .innerJoin('projects as p', (j) => j.onRef('p.orgId', '=', 'a.orgId').onRef('p.id', '=', 'a.projectId'))
      .selectAll('a')
      .where('a.orgId', '=', orgId)
    if (!scope.orgWide) q = q.where((eb) => visibleProjectRef(eb, 'a.projectId', 'a.orgId', scope))
    return q
  }
  return {
    async insert(allocation) {
      await db.insertInto('allocations').values(allocation).execute()
    },
    async get(orgId, id, scope) {
      const row = await live(orgId, scope).where('a.id', '=', id).executeTakeFirst()
      return row ? toAllocation(row) : null
    },
    async list(orgId, filter, page, scope) {
      let q = live(orgId, scope)
      if (filter.projectId) q = q.where('a.projectId', '=', filter.projectId)
      if (filter.memberId) q = q.where('a.memberId', '=', filter.memberId)
      if (filter.from) q = q.where('a.endDate', '>=', filter.from)
      if (filter.to) q = q.where('a.startDate', '<=', filter.to)
      const rows = await keysetPage(q, page, { sort: 'a.startDate', id: 'a.id' }).execute()
      return rows.map(toAllocation)
    },
    async update(orgId, id, patch) {
      await db.updateTable('allocations').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('allocations').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async overlapping(orgId, memberIds, from, to) {
      if (memberIds.length === 0) return []
      const rows = await live(orgId, UNSCOPED)
        .where('a.memberId', 'in', [...memberIds])
        .where('a.endDate', '>=', from)
        .where('a.startDate', '<=', to)
        .execute()
      return rows.map(toAllocation)
    },
  }
}
