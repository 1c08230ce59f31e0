import type { LabelId, OrgId, ReadScope, TeamId } from '@workgraph/core'
import type { ProjectRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { valuesOf } from '../fields/values.ts'
import { keysetPage } from '../keyset.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'
import { projectJoinRepo } from './project-joins.ts'
import { latestUpdate, openBlockers, type Row, toProject, visibleProject } from './project-rows.ts'
import { stateTally } from './state-tally.ts'

export function projectRepo(db: Kysely<Database>, purge: Purge): ProjectRepo {
  const select = (orgId: OrgId, scope: ReadScope) => {
    let q = db
      .selectFrom('projects')
      .innerJoin('projectStatuses as st', (j) =>
        j.onRef('st.orgId', '=', 'projects.orgId').onRef('st.id', '=', 'projects.statusId'),
      )
      .selectAll('projects')
      .select('st.category as statusCategory')
      .select((eb) => [
        latestUpdate(eb).select('su.health').as('health'),
        latestUpdate(eb).select('su.createdAt').as('lastUpdateAt'),
        openBlockers(eb).as('openBlockers'),
      ])
      .where('projects.orgId', '=', orgId)
    if (!scope.orgWide) q = q.where((eb) => visibleProject(eb, scope))
    return q
  }
  /** The teams of each project the scope can view, in the order they were added. */
  const teamsOf = async (orgId: OrgId, projectIds: string[], scope: ReadScope) => {
    const byProject = new Map<string, TeamId[]>(projectIds.map((id) => [id, []]))
    if (projectIds.length === 0) return byProject
    let q = db
      .selectFrom('projectTeams')
      .select(['projectId', 'teamId'])
      .where('orgId', '=', orgId)
      .where('projectId', 'in', projectIds)
    if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teamId', scope))
    const rows = await q.orderBy('createdAt').orderBy('teamId').execute()
    for (const r of rows) byProject.get(r.projectId)?.push(r.teamId as TeamId)
    return byProject
  }
  /** The labels of each project, in the order they were added; a deleted label is gone with it. */
  const labelsOf = async (orgId: OrgId, projectIds: string[]) => {
    const byProject = new Map<string, LabelId[]>(projectIds.map((id) => [id, []]))
    if (projectIds.length === 0) return byProject
    const rows = await db
      .selectFrom('projectLabels as pl')
      .innerJoin('labels as l', (j) => j.onRef('l.orgId', '=', 'pl.orgId').onRef('l.id', '=', 'pl.labelId'))
      .select(['pl.projectId', 'pl.labelId'])
      .where('pl.orgId', '=', orgId)
      .where('pl.projectId', 'in', projectIds)
      .orderBy('pl.createdAt')
      .orderBy('pl.labelId')
      .execute()
    for (const r of rows) byProject.get(r.projectId)?.push(r.labelId as LabelId)
    return byProject
  }
  const withTeams = async (orgId: OrgId, rows: Row[], scope: ReadScope) => {
    const ids = rows.map((r) => r.id as string)
    const teams = await teamsOf(orgId, ids, scope)
    const labels = await labelsOf(orgId, ids)
    const values = await valuesOf(db, orgId, 'project', ids)
    return rows.map((r) => {
      const id = r.id as string
      return toProject(r, teams.get(id) ?? [], labels.get(id) ?? [], values.get(id) ?? {})
    })
  }
  return {
    async insert(project, teamIds, at) {
      await db.insertInto('projects').values(project).execute()
      await db
        .insertInto('projectTeams')
        .values(
          teamIds.map((teamId) => ({ orgId: project.orgId, projectId: project.id, teamId, createdAt: at })),
        )
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await select(orgId, scope).where('projects.id', '=', id).executeTakeFirst()
      return row ? (await withTeams(orgId, [row], scope))[0]! : null
    },
    async placement(orgId, id, scope) {
      let q = db
        .selectFrom('projects')
        .select('projects.archivedAt')
        .where('projects.orgId', '=', orgId)
        .where('projects.id', '=', id)
      if (!scope.orgWide) q = q.where((eb) => visibleProject(eb, scope))
      const row = await q.executeTakeFirst()
      return row ? { archived: row.archivedAt !== null } : null
    },
    async list(orgId, filter, page, scope) {
      let q = select(orgId, scope)
      if (filter.statusId) q = q.where('projects.statusId', '=', filter.statusId)
      if (filter.leadId === null) q = q.where('projects.leadId', 'is', null)
      else if (filter.leadId) q = q.where('projects.leadId', '=', filter.leadId)
      if (filter.teamId) {
        const teamId = filter.teamId
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('projectTeams as ft')
              .select('ft.teamId')
              .whereRef('ft.orgId', '=', 'projects.orgId')
              .whereRef('ft.projectId', '=', 'projects.id')
              .where('ft.teamId', '=', teamId),
          ),
        )
      }
      if (filter.labelId) {
        const labelId = filter.labelId
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('projectLabels as fl')
              .select('fl.labelId')
              .whereRef('fl.orgId', '=', 'projects.orgId')
              .whereRef('fl.projectId', '=', 'projects.id')
              .where('fl.labelId', '=', labelId),
          ),
        )
      }
      if (filter.health === null) q = q.where((eb) => eb.not(eb.exists(latestUpdate(eb).select('su.id'))))
      else if (filter.health) {
        const health = filter.health
        q = q.where((eb) => eb(latestUpdate(eb).select('su.health'), '=', health))
      }
      if (filter.blocked !== undefined) {
        const op = filter.blocked ? '>' : '='
        q = q.where((eb) => eb(openBlockers(eb), op, 0))
      }
      if (filter.archived === true) q = q.where('projects.archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('projects.archivedAt', 'is', null)
      const rows = await keysetPage(q, page, { sort: 'projects.createdAt', id: 'projects.id' }).execute()
      return withTeams(orgId, rows, scope)
    },
    async update(orgId, id, patch) {
      await db.updateTable('projects').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    ...projectJoinRepo(db),
    /** Everything that lives only through the project goes; its tasks stay, detached. Answers their ids. */
    async delete(orgId, id) {
      const tasks = await db
        .selectFrom('tasks')
        .select('id')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('deletedAt', 'is', null)
        .orderBy('id')
        .execute()
      await purge(orgId, 'project', [id])
      return tasks.map((t) => t.id)
    },
    progress: (orgId, id, scope) => stateTally(db, orgId, id, scope),
  }
}
