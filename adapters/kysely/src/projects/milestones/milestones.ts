import type { MilestoneId, OrgId, ProjectId, StateCategory } from '@workgraph/core'
import type { MilestoneRecord, MilestoneRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Purge } from '../../purge-kinds.ts'
import type { Database } from '../../schema.ts'
import { visibleTask } from '../../scope.ts'

type Row = { [K in keyof Database['milestones']]: unknown }

const nameKey = (name: string) => name.normalize('NFC').toLowerCase()

function toMilestone({ nameKey: _k, ...r }: Row): MilestoneRecord {
  return {
    id: r.id as MilestoneId,
    orgId: r.orgId as OrgId,
    projectId: r.projectId as ProjectId,
    name: r.name as string,
    description: r.description as string | null,
    targetDate: r.targetDate as string | null,
    position: Number(r.position),
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

export function milestoneRepo(db: Kysely<Database>, purge: Purge): MilestoneRepo {
  const ofProject = (orgId: OrgId, projectId: ProjectId) =>
    db.selectFrom('milestones').selectAll().where('orgId', '=', orgId).where('projectId', '=', projectId)
  return {
    async insert(milestone) {
      await db
        .insertInto('milestones')
        .values({ ...milestone, nameKey: nameKey(milestone.name) })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('milestones')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toMilestone(row) : null
    },
    async list(orgId, projectId, page) {
      const rows = await keysetPage(ofProject(orgId, projectId), page, {
        sort: 'position',
        id: 'id',
      }).execute()
      return rows.map(toMilestone)
    },
    async all(orgId, projectId) {
      const rows = await ofProject(orgId, projectId).orderBy('position').orderBy('id').execute()
      return rows.map(toMilestone)
    },
    async tallies(orgId, projectId, scope) {
      let q = db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select((eb) => [
          'tasks.milestoneId as milestoneId',
          's.category as category',
          eb.fn.countAll().as('tasks'),
          eb.fn.coalesce(eb.fn.sum('tasks.estimate'), sql.lit(0)).as('points'),
        ])
        .where('tasks.orgId', '=', orgId)
        .where('tasks.projectId', '=', projectId)
        .where('tasks.milestoneId', 'is not', null)
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
      if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 'tasks', scope))
      const rows = await q.groupBy(['tasks.milestoneId', 's.category']).execute()
      return rows.map((r) => ({
        milestoneId: r.milestoneId as MilestoneId,
        category: r.category as StateCategory,
        tasks: Number(r.tasks),
        points: Number(r.points),
      }))
    },
    async findByName(orgId, projectId, name, exceptId) {
      let q = ofProject(orgId, projectId).where('nameKey', '=', nameKey(name))
      if (exceptId) q = q.where('id', '!=', exceptId)
      const row = await q.executeTakeFirst()
      return row ? toMilestone(row) : null
    },
    async nextPosition(orgId, projectId) {
      const row = await db
        .selectFrom('milestones')
        .select((eb) => eb.fn.max('position').as('max'))
        .where('orgId', '=', orgId)
        .where('projectId', '=', projectId)
        .executeTakeFirst()
      return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1
    },
    async update(orgId, id, patch) {
      const values = patch.name === undefined ? patch : { ...patch, nameKey: nameKey(patch.name) }
      await db.updateTable('milestones').set(values).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      const tasks = await db
        .selectFrom('tasks')
        .select('id')
        .where('orgId', '=', orgId)
        .where('milestoneId', '=', id)
        .where('deletedAt', 'is', null)
        .orderBy('id')
        .execute()
      await purge(orgId, 'milestone', [id])
      return tasks.map((t) => t.id)
    },
  }
}
