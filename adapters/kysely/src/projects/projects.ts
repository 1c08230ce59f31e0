import type {
  CustomFieldValues,
  LabelId,
  MemberId,
  OrgId,
  ProjectId,
  ReadScope,
  StateCategory,
  TeamId,
} from '@workgraph/core'
import type { ProjectRepo, ProjectRow } from '@workgraph/core/storage'
import { type ExpressionBuilder, type Kysely, sql } from 'kysely'
import { deleteThreadsOf } from '../comments/purge.ts'
import { valuesOf } from '../fields/values.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams, visibleTask } from '../scope.ts'
import { toTeam } from '../teams/teams.ts'

type Row = { [K in keyof Database['projects']]: unknown } & {
  statusCategory: unknown
  health: unknown
  lastUpdateAt: unknown
  openBlockers: unknown
}
type Project = ProjectRow

function toProject(r: Row, teamIds: TeamId[], labelIds: LabelId[], fields: CustomFieldValues): Project {
  return {
    id: r.id as ProjectId,
    orgId: r.orgId as OrgId,
    name: r.name as string,
    description: r.description as string | null,
    icon: r.icon as string | null,
    color: r.color as string,
    statusId: r.statusId as Project['statusId'],
    statusCategory: r.statusCategory as Project['statusCategory'],
    leadId: r.leadId as Project['leadId'],
    teamIds,
    labelIds,
    fields,
    priority: r.priority as Project['priority'],
    startDate: r.startDate as string | null,
    targetDate: r.targetDate as string | null,
    creatorId: r.creatorId as Project['creatorId'],
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    startedAt: isoOrNull(r.startedAt as string | null),
    completedAt: isoOrNull(r.completedAt as string | null),
    canceledAt: isoOrNull(r.canceledAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
    health: (r.health ?? null) as Project['health'],
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    blocked: Number(r.openBlockers) > 0,
    openBlockers: Number(r.openBlockers),
    updateCadence: r.updateCadence as Project['updateCadence'],
    updateWeekday: r.updateWeekday as Project['updateWeekday'],
  }
}

/**
 * The project's latest unarchived status update (newest `createdAt`, then id): a correlated
 * subquery on the `status_updates_subject` index, so `health` can be selected and filtered in SQL.
 */
function latestUpdate(eb: ExpressionBuilder<Database, 'projects'>) {
  return eb
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', 'projects.orgId')
    .where('su.subjectType', '=', 'project')
    .whereRef('su.subjectId', '=', 'projects.id')
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

/**
 * The `blocks` relations onto the project or its milestones whose blocker is open: an unarchived
 * project not completed or canceled and, for a milestone, one that is not done (it has no counted
 * task, or one that is neither completed nor canceled). Every blocker counts, visible or not:
 * hidden ones are counted, never named.
 */
function openBlockers(eb: ExpressionBuilder<Database, 'projects'>) {
  // The relation's milestone's counted tasks (typed loosely: `r` is an alias of the outer query).
  const milestoneTasks = (e: ExpressionBuilder<any, any>) =>
    (e as ExpressionBuilder<Database, 'projectRelations'>)
      .selectFrom('tasks as mt')
      .whereRef('mt.orgId', '=', sql.ref('r.orgId'))
      .whereRef('mt.milestoneId', '=', sql.ref('r.milestoneId'))
      .where('mt.deletedAt', 'is', null)
      .where('mt.archivedAt', 'is', null)
  return eb
    .selectFrom('projectRelations as r')
    .innerJoin('projects as b', (j) => j.onRef('b.orgId', '=', 'r.orgId').onRef('b.id', '=', 'r.projectId'))
    .innerJoin('projectStatuses as bs', (j) =>
      j.onRef('bs.orgId', '=', 'b.orgId').onRef('bs.id', '=', 'b.statusId'),
    )
    .select((e) => e.fn.countAll().as('n'))
    .whereRef('r.orgId', '=', 'projects.orgId')
    .whereRef('r.relatedProjectId', '=', 'projects.id')
    .where('r.type', '=', 'blocks')
    .where('b.archivedAt', 'is', null)
    .where('bs.category', 'not in', ['completed', 'canceled'])
    .where((e) =>
      e.or([
        e('r.milestoneId', 'is', null),
        e.not(e.exists(milestoneTasks(e).select('mt.id'))),
        e.exists(
          milestoneTasks(e)
            .innerJoin('workflowStates as ms', (j) =>
              j.onRef('ms.orgId', '=', 'mt.orgId').onRef('ms.id', '=', 'mt.stateId'),
            )
            .where('ms.category', 'not in', ['completed', 'canceled'])
            .select('mt.id'),
        ),
      ]),
    )
}

/**
 * The permission predicate of a project read: one of its teams is visible to the reader, or a grant
 * on the project itself reaches them. It is part of the query (an indexed `exists` on
 * `project_teams`, or a literal list of project ids), so pages are exact.
 */
function visibleProject(eb: ExpressionBuilder<Database, 'projects'>, scope: ReadScope) {
  const throughTeams = eb.exists(
    eb
      .selectFrom('projectTeams as pt')
      .select('pt.teamId')
      .whereRef('pt.orgId', '=', 'projects.orgId')
      .whereRef('pt.projectId', '=', 'projects.id')
      .where((e) => inVisibleTeams(e, 'pt.teamId', scope)),
  )
  if (scope.projectIds.length === 0) return throughTeams
  return eb.or([throughTeams, eb('projects.id', 'in', [...scope.projectIds])])
}

export function projectRepo(db: Kysely<Database>): ProjectRepo {
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
  const member = (r: { projectId: string; memberId: string; createdAt: unknown }) => ({
    projectId: r.projectId as ProjectId,
    memberId: r.memberId as MemberId,
    createdAt: iso(r.createdAt as string),
  })

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
    async listTeams(orgId, id, page, scope) {
      let q = db
        .selectFrom('teams')
        .selectAll('teams')
        .where('teams.orgId', '=', orgId)
        .where('teams.id', 'in', (eb) =>
          eb
            .selectFrom('projectTeams')
            .select('teamId')
            .where('orgId', '=', orgId)
            .where('projectId', '=', id),
        )
      if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teams.id', scope))
      const rows = await keysetPage(q, page, { sort: 'teams.id', id: 'teams.id' }).execute()
      return rows.map(toTeam)
    },
    async listMembers(orgId, id, page) {
      const q = db
        .selectFrom('projectMembers')
        .select(['projectId', 'memberId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'memberId', id: 'memberId' }).execute()
      return rows.map(member)
    },
    async getMember(orgId, id, memberId) {
      const row = await db
        .selectFrom('projectMembers')
        .select(['projectId', 'memberId', 'createdAt'])
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return row ? member(row) : null
    },
    async addMember(orgId, id, memberId, at) {
      const result = await db
        .insertInto('projectMembers')
        .values({ orgId, projectId: id, memberId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeMember(orgId, id, memberId) {
      const result = await db
        .deleteFrom('projectMembers')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('memberId', '=', memberId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async addLabel(orgId, id, labelId, at) {
      const result = await db
        .insertInto('projectLabels')
        .values({ orgId, projectId: id, labelId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeLabel(orgId, id, labelId) {
      const result = await db
        .deleteFrom('projectLabels')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('labelId', '=', labelId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async update(orgId, id, patch) {
      await db.updateTable('projects').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async addTeam(orgId, id, teamId, at) {
      const result = await db
        .insertInto('projectTeams')
        .values({ orgId, projectId: id, teamId, createdAt: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async removeTeam(orgId, id, teamId) {
      const result = await db
        .deleteFrom('projectTeams')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async delete(orgId, id) {
      const tasks = await db
        .selectFrom('tasks')
        .select('id')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .where('deletedAt', 'is', null)
        .orderBy('id')
        .execute()
      await db
        .updateTable('tasks')
        .set({ projectId: null, milestoneId: null })
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .execute()
      // Threads on the project, its milestones and its updates go with them.
      const milestoneIds = await db
        .selectFrom('milestones')
        .select('id')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .execute()
      const updateIds = await db
        .selectFrom('statusUpdates')
        .select('id')
        .where('orgId', '=', orgId)
        .where('subjectType', '=', 'project')
        .where('subjectId', '=', id)
        .execute()
      await deleteThreadsOf(db, orgId, 'project', [id])
      await deleteThreadsOf(
        db,
        orgId,
        'milestone',
        milestoneIds.map((m) => m.id),
      )
      await deleteThreadsOf(
        db,
        orgId,
        'update',
        updateIds.map((u) => u.id),
      )
      await db.deleteFrom('milestones').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db.deleteFrom('linkedItems').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db
        .deleteFrom('customFieldValues')
        .where('orgId', '=', orgId)
        .where('recordKind', '=', 'project')
        .where('recordId', '=', id)
        .execute()
      // Its status updates and their history go with it.
      const updates = db
        .selectFrom('statusUpdates')
        .select('id')
        .where('orgId', '=', orgId)
        .where('subjectType', '=', 'project')
        .where('subjectId', '=', id)
      await db
        .deleteFrom('statusUpdateRevisions')
        .where('orgId', '=', orgId)
        .where('updateId', 'in', updates)
        .execute()
      await db
        .deleteFrom('statusUpdates')
        .where('orgId', '=', orgId)
        .where('subjectType', '=', 'project')
        .where('subjectId', '=', id)
        .execute()
      // Initiatives that linked it lose the link.
      await db
        .deleteFrom('initiativeProjects')
        .where('orgId', '=', orgId)
        .where('projectId', '=', id)
        .execute()
      // Its documents, with their versions and subscribers, go with it too.
      const documents = db
        .selectFrom('documents')
        .select('id')
        .where('orgId', '=', orgId)
        .where('holderType', '=', 'project')
        .where('holderId', '=', id)
      const documentIds = (await documents.execute()).map((d) => d.id)
      await deleteThreadsOf(db, orgId, 'document', documentIds)
      for (const table of ['documentSubscribers', 'documentVersions'] as const) {
        await db.deleteFrom(table).where('orgId', '=', orgId).where('documentId', 'in', documents).execute()
      }
      await db
        .deleteFrom('documents')
        .where('orgId', '=', orgId)
        .where('holderType', '=', 'project')
        .where('holderId', '=', id)
        .execute()
      await db.deleteFrom('projectHistory').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db.deleteFrom('projectMembers').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db.deleteFrom('projectLabels').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db.deleteFrom('projectTeams').where('orgId', '=', orgId).where('projectId', '=', id).execute()
      await db.deleteFrom('projects').where('orgId', '=', orgId).where('id', '=', id).execute()
      return tasks.map((t) => t.id)
    },
    async progress(orgId, id, scope) {
      let q = db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select((eb) => [
          's.category as category',
          eb.fn.countAll().as('tasks'),
          eb.fn.coalesce(eb.fn.sum('tasks.estimate'), sql.lit(0)).as('points'),
        ])
        .where('tasks.orgId', '=', orgId)
        .where('tasks.projectId', '=', id)
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
      if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      const rows = await q.groupBy('s.category').execute()
      return rows.map((r) => ({
        category: r.category as StateCategory,
        tasks: Number(r.tasks),
        points: Number(r.points),
      }))
    },
  }
}
