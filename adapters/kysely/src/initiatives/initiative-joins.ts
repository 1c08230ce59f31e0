import type {
  InitiativeHistoryEntry,
  InitiativeId,
  InitiativeMember,
  InitiativeProject,
} from '@workgraph/core'
import type { InitiativeRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { joinTable } from '../join-table.ts'
import { keysetPage } from '../keyset.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { latestUpdate } from '../updates/latest.ts'
import { visibleProjectRef } from './initiative-rows.ts'

type Joins = Pick<
  InitiativeRepo,
  | 'listProjects'
  | 'projectLink'
  | 'projectLinks'
  | 'addProject'
  | 'removeProject'
  | 'setProjectPosition'
  | 'listMembers'
  | 'member'
  | 'addMember'
  | 'removeMember'
  | 'insertHistory'
  | 'history'
>

/** What an initiative is joined to: its linked projects (ordered), its members, and its history. */
export function initiativeJoinRepo(db: Kysely<Database>): Joins {
  const members = joinTable(db, {
    table: 'initiativeMembers',
    holder: 'initiativeId',
    other: 'memberId',
    at: 'addedAt',
  })
  return {
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
    async setProjectPosition(orgId, id, projectId, position) {
      await db
        .updateTable('initiativeProjects')
        .set({ position })
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .where('projectId', '=', projectId)
        .execute()
    },

    async listMembers(orgId, id, page) {
      return (await members.list(orgId, id, page, 'addedAt')).map(toMember)
    },
    async member(orgId, id, memberId) {
      const row = await members.get(orgId, id, memberId)
      return row ? toMember(row) : null
    },
    addMember: (orgId, id, memberId, at) => members.add(orgId, id, memberId, at),
    removeMember: (orgId, id, memberId) => members.remove(orgId, id, memberId),

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
        // The row holds what `recordHistory` wrote, typed by its action.
        (r) =>
          ({
            id: r.id,
            initiativeId: r.initiativeId as InitiativeId,
            actorId: r.actorId,
            action: r.action,
            changes: json(r.changes),
            createdAt: iso(r.createdAt),
          }) as InitiativeHistoryEntry,
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
