import type { InitiativeId, OrgId, ReadScope } from '@workgraph/core'
import type { InitiativeRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import {
  addContainerLabel,
  carriesLabel,
  type LabelJoin,
  labelIdsOf,
  removeContainerLabel,
} from '../container-labels.ts'
import { keysetPage } from '../keyset.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { visibleInitiativeRef } from '../scope.ts'
import { latestUpdate } from '../updates/latest.ts'
import { initiativeJoinRepo } from './initiative-joins.ts'
import { type Row, toInitiative } from './initiative-rows.ts'

/** This group's label join table, for the shared helpers of `container-labels.ts`. */
const INITIATIVE_LABELS: LabelJoin = { table: 'initiativeLabels', column: 'initiativeId' }

export function initiativeRepo(db: Kysely<Database>, purge: Purge): InitiativeRepo {
  const select = (orgId: OrgId, scope: ReadScope) =>
    db
      .selectFrom('initiatives')
      .selectAll('initiatives')
      .select((eb) => [
        latestUpdate(eb, 'initiative', 'initiatives.id', 'initiatives.orgId')
          .select('su.health')
          .as('health'),
        latestUpdate(eb, 'initiative', 'initiatives.id', 'initiatives.orgId')
          .select('su.createdAt')
          .as('lastUpdateAt'),
      ])
      .where('initiatives.orgId', '=', orgId)
      .where((eb) => visibleInitiativeRef(eb, 'initiatives.id', 'initiatives.orgId', scope))

  const subtreeIds = async (orgId: OrgId, id: string) =>
    (
      await db
        .selectFrom('initiativeClosure')
        .select(['descendantId', 'depth'])
        .where('orgId', '=', orgId)
        .where('ancestorId', '=', id)
        .execute()
    ).map((r) => ({ id: r.descendantId, depth: Number(r.depth) }))
  const ancestorsOf = async (orgId: OrgId, id: string) =>
    (
      await db
        .selectFrom('initiativeClosure')
        .select(['ancestorId', 'depth'])
        .where('orgId', '=', orgId)
        .where('descendantId', '=', id)
        .orderBy('depth')
        .execute()
    ).map((r) => ({ id: r.ancestorId as InitiativeId, depth: Number(r.depth) }))

  const withLabels = async (orgId: OrgId, rows: Row[]) => {
    const labels = await labelIdsOf(
      db,
      INITIATIVE_LABELS,
      orgId,
      rows.map((r) => r.id as string),
    )
    return rows.map((r) => toInitiative(r, labels.get(r.id as string) ?? []))
  }

  return {
    addLabel: (orgId, id, labelId, at) => addContainerLabel(db, INITIATIVE_LABELS, orgId, id, labelId, at),
    removeLabel: (orgId, id, labelId) => removeContainerLabel(db, INITIATIVE_LABELS, orgId, id, labelId),
    async insert(initiative) {
      await db.insertInto('initiatives').values(initiative).execute()
      const above = initiative.parentId ? await ancestorsOf(initiative.orgId, initiative.parentId) : []
      await db
        .insertInto('initiativeClosure')
        .values([
          { orgId: initiative.orgId, ancestorId: initiative.id, descendantId: initiative.id, depth: 0 },
          ...above.map((a) => ({
            orgId: initiative.orgId,
            ancestorId: a.id,
            descendantId: initiative.id,
            depth: a.depth + 1,
          })),
        ])
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await select(orgId, scope).where('initiatives.id', '=', id).executeTakeFirst()
      return row ? (await withLabels(orgId, [row]))[0]! : null
    },
    async list(orgId, filter, page, scope) {
      let q = select(orgId, scope)
      if (filter.status) q = q.where('initiatives.status', '=', filter.status)
      if (filter.ownerId === null) q = q.where('initiatives.ownerId', 'is', null)
      else if (filter.ownerId) q = q.where('initiatives.ownerId', '=', filter.ownerId)
      if (filter.parentId === null) q = q.where('initiatives.parentId', 'is', null)
      else if (filter.parentId) q = q.where('initiatives.parentId', '=', filter.parentId)
      if (filter.health === null) {
        q = q.where((eb) =>
          eb.not(
            eb.exists(latestUpdate(eb, 'initiative', 'initiatives.id', 'initiatives.orgId').select('su.id')),
          ),
        )
      } else if (filter.health) {
        const health = filter.health
        q = q.where((eb) =>
          eb(
            latestUpdate(eb, 'initiative', 'initiatives.id', 'initiatives.orgId').select('su.health'),
            '=',
            health,
          ),
        )
      }
      if (filter.targetBefore) q = q.where('initiatives.targetDate', '<=', filter.targetBefore)
      if (filter.targetAfter) q = q.where('initiatives.targetDate', '>=', filter.targetAfter)
      if (filter.archived === true) q = q.where('initiatives.archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('initiatives.archivedAt', 'is', null)
      if (filter.labelId) {
        const labelId = filter.labelId
        q = q.where((eb) => carriesLabel(eb, INITIATIVE_LABELS, 'initiatives', labelId))
      }
      const rows = await keysetPage(q, page, {
        sort: 'initiatives.createdAt',
        id: 'initiatives.id',
      }).execute()
      return withLabels(orgId, rows)
    },
    async update(orgId, id, patch) {
      await db.updateTable('initiatives').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    ancestors: (orgId, id) => ancestorsOf(orgId, id),
    async height(orgId, id) {
      return Math.max(0, ...(await subtreeIds(orgId, id)).map((d) => d.depth))
    },
    async move(orgId, id, parentId) {
      const below = await subtreeIds(orgId, id)
      const inside = below.map((d) => d.id)
      // Cut the subtree from its old ancestors, then hang it under the new parent's.
      await db
        .deleteFrom('initiativeClosure')
        .where('orgId', '=', orgId)
        .where('descendantId', 'in', inside)
        .where('ancestorId', 'not in', inside)
        .execute()
      if (parentId) {
        const above = await ancestorsOf(orgId, parentId)
        const rows = above.flatMap((a) =>
          below.map((d) => ({ orgId, ancestorId: a.id, descendantId: d.id, depth: a.depth + d.depth + 1 })),
        )
        await db.insertInto('initiativeClosure').values(rows).execute()
      }
      await db
        .updateTable('initiatives')
        .set({ parentId })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async subtree(orgId, rootId, scope) {
      let q = select(orgId, scope)
      if (rootId) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('initiativeClosure as sc')
              .select('sc.descendantId')
              .where('sc.orgId', '=', orgId)
              .where('sc.ancestorId', '=', rootId)
              .whereRef('sc.descendantId', '=', 'initiatives.id'),
          ),
        )
      }
      const rows = await q.orderBy('initiatives.createdAt').orderBy('initiatives.id').execute()
      return withLabels(orgId, rows)
    },
    async delete(orgId, id) {
      const row = await db
        .selectFrom('initiatives')
        .select('parentId')
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      const children = await db
        .selectFrom('initiatives')
        .select('id')
        .where('orgId', '=', orgId)
        .where('parentId', '=', id)
        .orderBy('id')
        .execute()
      const above = (await ancestorsOf(orgId, id)).filter((a) => a.depth > 0).map((a) => a.id)
      const below = (await subtreeIds(orgId, id)).filter((d) => d.depth > 0).map((d) => d.id)
      // Its sub-initiatives move up one level: the pairs across it get one step shorter.
      if (above.length > 0 && below.length > 0) {
        await db
          .updateTable('initiativeClosure')
          .set((eb) => ({ depth: eb('depth', '-', 1) }))
          .where('orgId', '=', orgId)
          .where('ancestorId', 'in', above)
          .where('descendantId', 'in', below)
          .execute()
      }
      await db
        .updateTable('initiatives')
        .set({ parentId: row.parentId })
        .where('orgId', '=', orgId)
        .where('parentId', '=', id)
        .execute()
      // Its closure rows go with the rest of it.
      await purge(orgId, 'initiative', [id])
      return children.map((c) => c.id as InitiativeId)
    },

    ...initiativeJoinRepo(db),
  }
}
