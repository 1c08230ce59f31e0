import type {
  LabelId,
  MemberId,
  OrgId,
  Program,
  ProgramHistoryEntry,
  ProgramHistoryId,
  ProgramId,
  ProjectId,
  ReadScope,
  TeamId,
} from '@workgraph/core'
import type { ProgramRepo } from '@workgraph/core/storage'
import type { ExpressionBuilder, Kysely } from 'kysely'
import {
  addContainerLabel,
  carriesLabel,
  type LabelJoin,
  labelIdsOf,
  removeContainerLabel,
} from '../container-labels.ts'
import { unwrapHistoryValue, wrapHistoryValue } from '../history.ts'
import { joinTable, teamIn } from '../join-table.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import { stateTally } from '../projects/state-tally.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams, visibleProgramRef, visibleProjectRef } from '../scope.ts'

/** This group's label join table, for the shared helpers of `container-labels.ts`. */
const PROGRAM_LABELS: LabelJoin = { table: 'programLabels', column: 'programId' }

type Row = { [K in keyof Database['programs']]: unknown } & { health: unknown; lastUpdateAt: unknown }

function toProgram(r: Row, labelIds: LabelId[]): Program {
  return {
    id: r.id as ProgramId,
    orgId: r.orgId as OrgId,
    name: r.name as string,
    description: r.description as string | null,
    icon: r.icon as string | null,
    color: r.color as string,
    ownerId: r.ownerId as Program['ownerId'],
    status: r.status as Program['status'],
    labelIds,
    retiredAt: isoOrNull(r.retiredAt as string | null),
    health: (r.health ?? null) as Program['health'],
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    creatorId: r.creatorId as string,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

/** The program's latest unarchived status update, as for projects (on `status_updates_subject`). */
function latestUpdate(eb: ExpressionBuilder<Database, 'programs'>) {
  return eb
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', 'programs.orgId')
    .where('su.subjectType', '=', 'program')
    .whereRef('su.subjectId', '=', 'programs.id')
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

/** A linked project the scope can view: one of its teams is visible, or a grant on it reaches the reader. */
function visibleProject(eb: ExpressionBuilder<Database, 'programProjects'>, scope: ReadScope) {
  return visibleProjectRef(eb, 'programProjects.projectId', 'programProjects.orgId', scope)
}

const programMember = (r: { programId: string; memberId: string; createdAt: unknown }) => ({
  programId: r.programId as ProgramId,
  memberId: r.memberId as MemberId,
  addedAt: iso(r.createdAt as string),
})
const programTeam = (r: { programId: string; teamId: string; createdAt: unknown }) => ({
  programId: r.programId as ProgramId,
  teamId: r.teamId as TeamId,
  addedAt: iso(r.createdAt as string),
})

export function programRepo(db: Kysely<Database>, purge: Purge): ProgramRepo {
  const members = joinTable(db, {
    table: 'programMembers',
    holder: 'programId',
    other: 'memberId',
    at: 'createdAt',
  })
  const teams = joinTable(db, {
    table: 'programTeams',
    holder: 'programId',
    other: 'teamId',
    at: 'createdAt',
  })
  const select = (orgId: OrgId, scope?: ReadScope) => {
    const q = db
      .selectFrom('programs')
      .selectAll('programs')
      .select((eb) => [
        latestUpdate(eb).select('su.health').as('health'),
        latestUpdate(eb).select('su.createdAt').as('lastUpdateAt'),
      ])
      .where('programs.orgId', '=', orgId)
    return !scope || scope.orgWide
      ? q
      : q.where((eb) => visibleProgramRef(eb, 'programs.id', 'programs.orgId', scope))
  }
  const links = (orgId: OrgId, id: ProgramId) =>
    db
      .selectFrom('programProjects')
      .select(['projectId', 'position', 'addedBy', 'addedAt'])
      .where('programProjects.orgId', '=', orgId)
      .where('programProjects.programId', '=', id)
  const toLink = (r: { projectId: string; position: number; addedBy: string; addedAt: unknown }) => ({
    projectId: r.projectId as ProjectId,
    position: Number(r.position),
    addedBy: r.addedBy,
    addedAt: iso(r.addedAt as string),
  })

  const withLabels = async (orgId: OrgId, rows: Row[]) => {
    const labels = await labelIdsOf(
      db,
      PROGRAM_LABELS,
      orgId,
      rows.map((r) => r.id as string),
    )
    return rows.map((r) => toProgram(r, labels.get(r.id as string) ?? []))
  }

  return {
    addLabel: (orgId, id, labelId, at) => addContainerLabel(db, PROGRAM_LABELS, orgId, id, labelId, at),
    removeLabel: (orgId, id, labelId) => removeContainerLabel(db, PROGRAM_LABELS, orgId, id, labelId),
    async insert(program) {
      await db.insertInto('programs').values(program).execute()
    },
    async get(orgId, id, scope) {
      const row = await select(orgId, scope).where('programs.id', '=', id).executeTakeFirst()
      return row ? (await withLabels(orgId, [row]))[0]! : null
    },
    async list(orgId, filter, page, scope) {
      let q = select(orgId, scope)
      if (filter.status) q = q.where('programs.status', '=', filter.status)
      if (filter.ownerId === null) q = q.where('programs.ownerId', 'is', null)
      else if (filter.ownerId) q = q.where('programs.ownerId', '=', filter.ownerId)
      if (filter.teamId) {
        const teamId = filter.teamId
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('programTeams as ft')
              .select('ft.teamId')
              .whereRef('ft.orgId', '=', 'programs.orgId')
              .whereRef('ft.programId', '=', 'programs.id')
              .where('ft.teamId', '=', teamId),
          ),
        )
      }
      if (filter.health === null) q = q.where((eb) => eb.not(eb.exists(latestUpdate(eb).select('su.id'))))
      else if (filter.health) {
        const health = filter.health
        q = q.where((eb) => eb(latestUpdate(eb).select('su.health'), '=', health))
      }
      if (filter.archived === true) q = q.where('programs.archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('programs.archivedAt', 'is', null)
      if (filter.labelId) {
        const labelId = filter.labelId
        q = q.where((eb) => carriesLabel(eb, PROGRAM_LABELS, 'programs', labelId))
      }
      const rows = await keysetPage(q, page, { sort: 'programs.createdAt', id: 'programs.id' }).execute()
      return withLabels(orgId, rows)
    },
    async update(orgId, id, patch) {
      await db.updateTable('programs').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await purge(orgId, 'program', [id])
    },

    async projects(orgId, id, page, scope) {
      let q = links(orgId, id)
      if (!scope.orgWide) q = q.where((eb) => visibleProject(eb, scope))
      const rows = await keysetPage(q, page, {
        sort: 'programProjects.position',
        id: 'programProjects.projectId',
      }).execute()
      return rows.map(toLink)
    },
    async allProjects(orgId, id) {
      const rows = await links(orgId, id).orderBy('position').orderBy('projectId').execute()
      return rows.map(toLink)
    },
    async addProject(orgId, id, row) {
      const result = await db
        .insertInto('programProjects')
        .values({ orgId, programId: id, ...row })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeProject(orgId, id, projectId) {
      const result = await db
        .deleteFrom('programProjects')
        .where('orgId', '=', orgId)
        .where('programId', '=', id)
        .where('projectId', '=', projectId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async setPosition(orgId, id, projectId, position) {
      await db
        .updateTable('programProjects')
        .set({ position })
        .where('orgId', '=', orgId)
        .where('programId', '=', id)
        .where('projectId', '=', projectId)
        .execute()
    },
    async progress(orgId, id, scope) {
      // The program's unarchived projects the scope can view; then their tasks the scope can view.
      let projects = db
        .selectFrom('programProjects')
        .innerJoin('projects as p', (j) =>
          j.onRef('p.orgId', '=', 'programProjects.orgId').onRef('p.id', '=', 'programProjects.projectId'),
        )
        .select('programProjects.projectId')
        .where('programProjects.orgId', '=', orgId)
        .where('programProjects.programId', '=', id)
        .where('p.archivedAt', 'is', null)
      if (!scope.orgWide) projects = projects.where((eb) => visibleProject(eb, scope))
      return stateTally(db, orgId, projects, scope)
    },

    async members(orgId, id, page) {
      return (await members.list(orgId, id, page, 'memberId')).map(programMember)
    },
    async member(orgId, id, memberId) {
      const row = await members.get(orgId, id, memberId)
      return row ? programMember(row) : null
    },
    addMember: (orgId, id, memberId, at) => members.add(orgId, id, memberId, at),
    removeMember: (orgId, id, memberId) => members.remove(orgId, id, memberId),

    async teams(orgId, id, page, scope) {
      const visible = scope.orgWide ? undefined : teamIn(scope)
      return (await teams.list(orgId, id, page, 'teamId', visible)).map(programTeam)
    },
    async team(orgId, id, teamId) {
      const row = await teams.get(orgId, id, teamId)
      return row ? programTeam(row) : null
    },
    async teamIds(orgId, id) {
      const rows = await db
        .selectFrom('programTeams')
        .select('teamId')
        .where('orgId', '=', orgId)
        .where('programId', '=', id)
        .orderBy('teamId')
        .execute()
      return rows.map((r) => r.teamId as TeamId)
    },
    addTeam: (orgId, id, teamId, at) => teams.add(orgId, id, teamId, at),
    removeTeam: (orgId, id, teamId) => teams.remove(orgId, id, teamId),

    async insertHistory(entries) {
      if (entries.length === 0) return
      await db
        .insertInto('programHistory')
        .values(
          entries.map((e) => ({
            orgId: e.orgId,
            id: e.id,
            programId: e.programId,
            actorId: e.actorId,
            field: e.field,
            beforeValue: wrapHistoryValue(e.before),
            afterValue: wrapHistoryValue(e.after),
            refType: e.ref?.type ?? null,
            refId: e.ref?.id ?? null,
            createdAt: e.createdAt,
          })),
        )
        .execute()
    },
    async history(orgId, id, page, scope) {
      let q = db
        .selectFrom('programHistory as h')
        .selectAll('h')
        .where('h.orgId', '=', orgId)
        .where('h.programId', '=', id)
      if (!scope.orgWide) {
        q = q.where((eb) =>
          eb.or([
            eb('h.refType', 'is', null),
            eb.and([eb('h.refType', '=', 'team'), inVisibleTeams(eb, 'h.refId', scope)]),
            eb.and([
              eb('h.refType', '=', 'project'),
              eb.exists(
                eb
                  .selectFrom('projectTeams as pt')
                  .select('pt.teamId')
                  .whereRef('pt.orgId', '=', 'h.orgId')
                  .whereRef('pt.projectId', '=', 'h.refId')
                  .where((e) => inVisibleTeams(e, 'pt.teamId', scope)),
              ),
            ]),
          ]),
        )
      }
      const rows = await keysetPage(q, page, { sort: 'h.createdAt', id: 'h.id' }).execute()
      // The row holds what the core's writer recorded, whose type the entry's schema fixes.
      return rows.map(
        (r) =>
          ({
            id: r.id as ProgramHistoryId,
            programId: r.programId as ProgramId,
            actorId: r.actorId,
            field: r.field,
            before: unwrapHistoryValue(r.beforeValue),
            after: unwrapHistoryValue(r.afterValue),
            createdAt: iso(r.createdAt),
          }) as ProgramHistoryEntry,
      )
    },
  }
}
