import type {
  Initiative,
  InitiativeHistoryEntry,
  InitiativeId,
  InitiativeMember,
  InitiativeProject,
  OrgId,
  ReadScope,
} from '@workgraph/core'
import type { InitiativeRepo } from '@workgraph/core/storage'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import { purgeFollowedRecord } from '../programs/purge.ts'
import type { Database } from '../schema.ts'
import { visibleProjectRef as visibleProjectOf } from '../scope.ts'

type Row = { [K in keyof Database['initiatives']]: unknown } & { health: unknown; lastUpdateAt: unknown }

function toInitiative(r: Row): Initiative {
  return {
    id: r.id as Initiative['id'],
    orgId: r.orgId as Initiative['orgId'],
    name: r.name as string,
    description: r.description as string | null,
    ownerId: r.ownerId as Initiative['ownerId'],
    status: r.status as Initiative['status'],
    targetDate: r.targetDate as string | null,
    parentId: r.parentId as Initiative['parentId'],
    health: (r.health ?? null) as Initiative['health'],
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    creatorId: r.creatorId as string,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    startedAt: isoOrNull(r.startedAt as string | null),
    completedAt: isoOrNull(r.completedAt as string | null),
    canceledAt: isoOrNull(r.canceledAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

/** The outer query's builder, for subqueries on the base tables (its own aliases are referenced by name). */
const asBase = <DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
  eb as unknown as ExpressionBuilder<Database, keyof Database>

/** The latest unarchived status update of a subject, as the projects repo reads a project's. */
function latestUpdate<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  subjectType: string,
  idRef: string,
  orgRef: string,
) {
  return asBase(outer)
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', orgRef as never)
    .where('su.subjectType', '=', subjectType)
    .whereRef('su.subjectId', '=', idRef as never)
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

/** The reader may view the project: one of its teams is visible, or a grant on it reaches them (the projects repo's predicate). */
export function visibleProjectRef<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  projectRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  return visibleProjectOf(outer, projectRef, orgRef, scope)
}

/**
 * The permission predicate of an initiative read: org-wide readers see all; others see an initiative
 * when it or one of its sub-initiatives (the closure table) links a project they can view (through
 * its teams or a grant on it). It is part of the query, so pages are exact.
 */
export function visibleInitiativeRef<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  idRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  const eb = asBase(outer)
  return eb.exists(
    eb
      .selectFrom('initiativeClosure as vc')
      .innerJoin('initiativeProjects as vip', (j) =>
        j.onRef('vip.orgId', '=', 'vc.orgId').onRef('vip.initiativeId', '=', 'vc.descendantId'),
      )
      .select('vc.descendantId')
      .whereRef('vc.orgId', '=', orgRef as never)
      .whereRef('vc.ancestorId', '=', idRef as never)
      .where((e) => visibleProjectOf(e, 'vip.projectId', 'vip.orgId', scope)),
  )
}

export function initiativeRepo(db: Kysely<Database>): InitiativeRepo {
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

  return {
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
      return row ? toInitiative(row) : null
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
      const rows = await keysetPage(q, page, {
        sort: 'initiatives.createdAt',
        id: 'initiatives.id',
      }).execute()
      return rows.map(toInitiative)
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
      return rows.map(toInitiative)
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
        .deleteFrom('initiativeClosure')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('ancestorId', '=', id), eb('descendantId', '=', id)]))
        .execute()
      await db
        .updateTable('initiatives')
        .set({ parentId: row.parentId })
        .where('orgId', '=', orgId)
        .where('parentId', '=', id)
        .execute()
      await db
        .deleteFrom('initiativeProjects')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .execute()
      await db
        .deleteFrom('initiativeMembers')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .execute()
      await db
        .deleteFrom('initiativeHistory')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .execute()
      await purgeFollowedRecord(db, orgId, 'initiative', id)
      const updates = db
        .selectFrom('statusUpdates')
        .select('id')
        .where('orgId', '=', orgId)
        .where('subjectType', '=', 'initiative')
        .where('subjectId', '=', id)
      await db
        .deleteFrom('statusUpdateRevisions')
        .where('orgId', '=', orgId)
        .where('updateId', 'in', updates)
        .execute()
      await db
        .deleteFrom('statusUpdates')
        .where('orgId', '=', orgId)
        .where('subjectType', '=', 'initiative')
        .where('subjectId', '=', id)
        .execute()
      await db.deleteFrom('initiatives').where('orgId', '=', orgId).where('id', '=', id).execute()
      return children.map((c) => c.id as InitiativeId)
    },

    async listProjects(orgId, id, page, scope) {
      const q = linkSelect(db)
        .where('ip.orgId', '=', orgId)
        .where('ip.initiativeId', '=', id)
        .where((eb) => visibleProjectRef(eb, 'ip.projectId', 'ip.orgId', scope))
      const rows = await keysetPage(q, page, { sort: 'ip.position', id: 'ip.projectId' }).execute()
      return rows.map(toLink)
    },
    async projectLink(orgId, id, projectId) {
      const row = await linkSelect(db)
        .where('ip.orgId', '=', orgId)
        .where('ip.initiativeId', '=', id)
        .where('ip.projectId', '=', projectId)
        .executeTakeFirst()
      return row ? toLink(row) : null
    },
    async projectLinks(orgId, ids, scope) {
      if (ids.length === 0) return []
      const rows = await db
        .selectFrom('initiativeProjects as ip')
        .select(['ip.initiativeId', 'ip.projectId'])
        .where('ip.orgId', '=', orgId)
        .where('ip.initiativeId', 'in', [...ids])
        .where((eb) => visibleProjectRef(eb, 'ip.projectId', 'ip.orgId', scope))
        .orderBy('ip.initiativeId')
        .orderBy('ip.position')
        .orderBy('ip.projectId')
        .execute()
      return rows.map((r) => ({
        initiativeId: r.initiativeId as InitiativeId,
        projectId: r.projectId as InitiativeProject['projectId'],
      }))
    },
    async addProject(orgId, id, projectId, at) {
      const last = await db
        .selectFrom('initiativeProjects')
        .select((eb) => eb.fn.max('position').as('position'))
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .executeTakeFirst()
      const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1
      const result = await db
        .insertInto('initiativeProjects')
        .values({ orgId, initiativeId: id, projectId, position, addedAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeProject(orgId, id, projectId) {
      const result = await db
        .deleteFrom('initiativeProjects')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .where('projectId', '=', projectId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async listMembers(orgId, id, page) {
      const q = db
        .selectFrom('initiativeMembers')
        .select(['initiativeId', 'memberId', 'addedAt'])
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'addedAt', id: 'memberId' }).execute()
      return rows.map(toMember)
    },
    async member(orgId, id, memberId) {
      const row = await db
        .selectFrom('initiativeMembers')
        .select(['initiativeId', 'memberId', 'addedAt'])
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return row ? toMember(row) : null
    },
    async addMember(orgId, id, memberId, at) {
      const result = await db
        .insertInto('initiativeMembers')
        .values({ orgId, initiativeId: id, memberId, addedAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeMember(orgId, id, memberId) {
      const result = await db
        .deleteFrom('initiativeMembers')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async insertHistory(orgId, entry) {
      await db
        .insertInto('initiativeHistory')
        .values({ ...entry, orgId, changes: JSON.stringify(entry.changes) })
        .execute()
    },
    async history(orgId, id, page) {
      const q = db
        .selectFrom('initiativeHistory')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(
        (r): InitiativeHistoryEntry => ({
          id: r.id as InitiativeHistoryEntry['id'],
          initiativeId: r.initiativeId as InitiativeId,
          actorId: r.actorId,
          action: r.action,
          changes: json(r.changes),
          createdAt: iso(r.createdAt),
        }),
      )
    },
  }
}

const linkSelect = (db: Kysely<Database>) =>
  db
    .selectFrom('initiativeProjects as ip')
    .innerJoin('projects as p', (j) => j.onRef('p.orgId', '=', 'ip.orgId').onRef('p.id', '=', 'ip.projectId'))
    .select(['ip.initiativeId', 'ip.projectId', 'ip.position', 'ip.addedAt', 'p.name'])
    .select((eb) => latestUpdate(eb, 'project', 'p.id', 'p.orgId').select('su.health').as('health'))

function toLink(r: {
  initiativeId: string
  projectId: string
  position: number
  addedAt: unknown
  name: string
  health: unknown
}): InitiativeProject {
  return {
    initiativeId: r.initiativeId as InitiativeId,
    projectId: r.projectId as InitiativeProject['projectId'],
    position: Number(r.position),
    addedAt: iso(r.addedAt as string),
    name: r.name,
    health: (r.health ?? null) as InitiativeProject['health'],
  }
}

function toMember(r: { initiativeId: string; memberId: string; addedAt: unknown }): InitiativeMember {
  return {
    initiativeId: r.initiativeId as InitiativeId,
    memberId: r.memberId as InitiativeMember['memberId'],
    addedAt: iso(r.addedAt as string),
  }
}
