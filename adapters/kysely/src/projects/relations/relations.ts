import type {
  MilestoneId,
  OrgId,
  ProjectId,
  ProjectRelation,
  ProjectRelationId,
  ReadScope,
} from '@workgraph/core'
import type { ProjectRelationRepo } from '@workgraph/core/storage'
import type { ExpressionBuilder, Kysely } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'
import { visibleProjectRef } from '../../scope.ts'

type Row = { [K in keyof Database['projectRelations']]: unknown }

function toRelation(r: Row): ProjectRelation {
  return {
    id: r.id as ProjectRelationId,
    orgId: r.orgId as OrgId,
    type: r.type as ProjectRelation['type'],
    projectId: r.projectId as ProjectId,
    milestoneId: r.milestoneId as MilestoneId | null,
    relatedProjectId: r.relatedProjectId as ProjectId,
    relatedMilestoneId: r.relatedMilestoneId as MilestoneId | null,
    creatorId: r.creatorId as ProjectRelation['creatorId'],
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

/** The reader may view the project in `column`: a visible team or a grant on it, inside the query. */
function visibleProject(
  eb: ExpressionBuilder<Database, 'projectRelations'>,
  column: 'projectRelations.projectId' | 'projectRelations.relatedProjectId',
  scope: ReadScope,
) {
  return visibleProjectRef(eb, column, 'projectRelations.orgId', scope)
}

export function projectRelationRepo(db: Kysely<Database>): ProjectRelationRepo {
  const keys = (
    r: Pick<ProjectRelation, 'projectId' | 'milestoneId' | 'relatedProjectId' | 'relatedMilestoneId'>,
  ) => ({
    sourceKey: r.milestoneId ?? r.projectId,
    targetKey: r.relatedMilestoneId ?? r.relatedProjectId,
  })
  return {
    async insert(relation) {
      await db
        .insertInto('projectRelations')
        .values({ ...relation, ...keys(relation) })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('projectRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRelation(row) : null
    },
    async list(orgId, projectId, page, scope) {
      let q = db
        .selectFrom('projectRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('projectId', '=', projectId), eb('relatedProjectId', '=', projectId)]))
      if (!scope.orgWide) {
        q = q
          .where((eb) => visibleProject(eb, 'projectRelations.projectId', scope))
          .where((eb) => visibleProject(eb, 'projectRelations.relatedProjectId', scope))
      }
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toRelation)
    },
    async findBetween(orgId, a, b, exceptId) {
      let q = db
        .selectFrom('projectRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where((eb) =>
          eb.or([
            eb.and([eb('sourceKey', '=', a), eb('targetKey', '=', b)]),
            eb.and([eb('sourceKey', '=', b), eb('targetKey', '=', a)]),
          ]),
        )
      if (exceptId) q = q.where('id', '!=', exceptId)
      const row = await q.executeTakeFirst()
      return row ? toRelation(row) : null
    },
    async blockingEdges(orgId) {
      const rows = await db
        .selectFrom('projectRelations')
        .select(['id', 'projectId', 'milestoneId', 'relatedProjectId', 'relatedMilestoneId'])
        .where('orgId', '=', orgId)
        .where('type', '=', 'blocks')
        .execute()
      return rows.map((r) => ({
        id: r.id as ProjectRelationId,
        projectId: r.projectId as ProjectId,
        milestoneId: r.milestoneId as MilestoneId | null,
        relatedProjectId: r.relatedProjectId as ProjectId,
        relatedMilestoneId: r.relatedMilestoneId as MilestoneId | null,
      }))
    },
    async update(orgId, id, patch) {
      const current = await db
        .selectFrom('projectRelations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      const next = { ...toRelation(current), ...patch }
      await db
        .updateTable('projectRelations')
        .set({ ...patch, ...keys(next) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('projectRelations').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async deleteTouching(orgId, on) {
      const touching = (eb: ExpressionBuilder<Database, 'projectRelations'>) =>
        'projectId' in on
          ? eb.or([eb('projectId', '=', on.projectId), eb('relatedProjectId', '=', on.projectId)])
          : eb.or([eb('milestoneId', '=', on.milestoneId), eb('relatedMilestoneId', '=', on.milestoneId)])
      const rows = await db
        .selectFrom('projectRelations')
        .select('id')
        .where('orgId', '=', orgId)
        .where(touching)
        .orderBy('id')
        .execute()
      await db.deleteFrom('projectRelations').where('orgId', '=', orgId).where(touching).execute()
      return rows.map((r) => r.id)
    },
  }
}
