import type { ActorId, OrgId, ReadScope, TeamId, Template, TemplateId, TemplateKind } from '@workgraph/core'
import type { TemplateFilter, TemplateRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Row = { [K in keyof Database['templates']]: unknown }

function toTemplate(r: Row): Template {
  return {
    id: r.id as TemplateId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId,
    kind: r.kind as TemplateKind,
    name: r.name as string,
    description: r.description as string | null,
    task: r.task === null ? null : json(r.task),
    project: r.project === null ? null : json(r.project),
    creatorId: r.creatorId as ActorId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

const asJson = (value: unknown) => (value === null || value === undefined ? value : JSON.stringify(value))

export function templateRepo(db: Kysely<Database>): TemplateRepo {
  /** The org's templates the scope may view: the permission predicate is part of the query. */
  const visible = (orgId: OrgId, filter: TemplateFilter, scope: ReadScope) => {
    let q = db.selectFrom('templates').selectAll().where('orgId', '=', orgId)
    if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teamId', scope))
    if (filter.kind) q = q.where('kind', '=', filter.kind)
    if (filter.teamId) q = q.where('teamId', '=', filter.teamId)
    return q
  }
  return {
    async insert(template) {
      await db
        .insertInto('templates')
        .values({
          ...template,
          task: asJson(template.task) as never,
          project: asJson(template.project) as never,
        })
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await visible(orgId, {}, scope).where('id', '=', id).executeTakeFirst()
      return row ? toTemplate(row) : null
    },
    async list(orgId, filter, page, scope) {
      const rows = await keysetPage(visible(orgId, filter, scope), page, { sort: 'name', id: 'id' }).execute()
      return rows.map(toTemplate)
    },
    async update(orgId, id, patch) {
      const set: Record<string, unknown> = { ...patch }
      if (patch.task !== undefined) set.task = asJson(patch.task)
      if (patch.project !== undefined) set.project = asJson(patch.project)
      await db
        .updateTable('templates')
        .set(set as never)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('templates').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async recurrenceCount(orgId, id) {
      const row = await db
        .selectFrom('recurrences')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('orgId', '=', orgId)
        .where('templateId', '=', id)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}
