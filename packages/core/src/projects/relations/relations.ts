import { currentOrg } from '../../kernel/context.ts'
import { changesOf } from '../../kernel/history-entry.ts'
import {
  type MilestoneId,
  newId,
  type ProjectId,
  type ProjectRelationId,
  type TeamId,
} from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { referenceNotFound } from '../../kernel/references.ts'
import { recordProjectHistory } from '../history/records.ts'
import { unscopedProject } from '../project-records.ts'
import type { Project } from '../schemas.ts'
import { requireProject } from '../service.ts'
import { blockingCycle, type RelationEnd } from './graph.ts'
import type { ProjectRelation, ProjectRelationType } from './schemas.ts'

export interface RelationInput {
  type: ProjectRelationType
  milestoneId?: MilestoneId | null
  relatedProjectId: ProjectId
  relatedMilestoneId?: MilestoneId | null
}

/** The relation, when the caller may view the projects on both its ends; otherwise 404. */
export async function requireProjectRelation(
  ctx: OperationContext,
  relationId: ProjectRelationId,
): Promise<ProjectRelation> {
  const orgId = currentOrg(ctx).id
  const relation = await ctx.store.projectRelations.get(orgId, relationId)
  if (!relation) throw notFound('Project relation')
  const scope = await ctx.scope()
  for (const id of [relation.projectId, relation.relatedProjectId]) {
    if (!(await ctx.store.projects.get(orgId, id, scope))) throw notFound('Project relation')
  }
  return relation
}

/** The relations with the project on either end, oldest first; those whose other end is hidden are left out. */
export async function listProjectRelations(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProjectRelation>> {
  const project = await requireProject(ctx, projectId)
  return readPage(ctx, {
    scope: ['projects.relations.list', project.orgId, project.id],
    query,
    sort: 'createdAt',
    direction: 'asc',
    keyOf: (r: ProjectRelation) => r.createdAt,
    fetch: async (page) =>
      ctx.store.projectRelations.list(project.orgId, project.id, page, await ctx.scope()),
  })
}

/**
 * Relates the project (or one of its milestones) to another project or milestone, of any team.
 * The caller holds `contribute` on the project (the operation checks it) and must view the other
 * end. Changes to one org's graph are serialised, so two concurrent links cannot close a cycle.
 */
export async function createProjectRelation(
  ctx: OperationContext,
  projectId: ProjectId,
  input: RelationInput,
): Promise<ProjectRelation> {
  const project = await requireProject(ctx, projectId)
  if (project.archivedAt) throw new ProblemError('archived', 'The project is archived; restore it first.')
  const related = await relatedProject(ctx, input.relatedProjectId)
  const from = await anchor(ctx, project, input.milestoneId ?? null, '/body/milestoneId')
  const to = await anchor(ctx, related, input.relatedMilestoneId ?? null, '/body/relatedMilestoneId')
  assertDistinct(from, to)
  await lock(ctx)
  await assertNoDuplicate(ctx, from, to)
  if (input.type === 'blocks') await assertAcyclic(ctx, from, to)
  const relation: ProjectRelation = {
    id: newId('ProjectRelationId'),
    orgId: project.orgId,
    type: input.type,
    projectId: project.id,
    milestoneId: from.milestoneId as MilestoneId | null,
    relatedProjectId: related.id,
    relatedMilestoneId: to.milestoneId as MilestoneId | null,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.projectRelations.insert(relation)
  await emitRelation(ctx, 'project_relation.created', relation, { relation })
  return relation
}

/** Changes the type or the milestone anchors; the ends' projects stay. A `blocks` result is re-checked for cycles. */
export async function updateProjectRelation(
  ctx: OperationContext,
  relationId: ProjectRelationId,
  fields: {
    type?: ProjectRelationType
    milestoneId?: MilestoneId | null
    relatedMilestoneId?: MilestoneId | null
  },
): Promise<ProjectRelation> {
  const relation = await requireProjectRelation(ctx, relationId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && relation[k as keyof ProjectRelation] !== v),
  ) as typeof fields
  if (Object.keys(changed).length === 0) return relation
  const next = { ...relation, ...changed, updatedAt: ctx.now }
  const project = await requireProject(ctx, relation.projectId)
  const related = await requireProject(ctx, relation.relatedProjectId)
  const from = await anchor(ctx, project, next.milestoneId, '/body/milestoneId')
  const to = await anchor(ctx, related, next.relatedMilestoneId, '/body/relatedMilestoneId')
  assertDistinct(from, to)
  await lock(ctx)
  await assertNoDuplicate(ctx, from, to, relation.id)
  if (next.type === 'blocks') await assertAcyclic(ctx, from, to, relation.id)
  await ctx.store.projectRelations.update(relation.orgId, relation.id, { ...changed, updatedAt: ctx.now })
  await emitRelation(ctx, 'project_relation.updated', next, {
    relation: next,
    changes: changesOf(relation, changed),
  })
  return next
}

export async function deleteProjectRelation(
  ctx: OperationContext,
  relationId: ProjectRelationId,
): Promise<void> {
  // `contribute` on either end was checked by the operation (`project_relation_ends`); both must be visible.
  const relation = await requireProjectRelation(ctx, relationId)
  await lock(ctx)
  await ctx.store.projectRelations.delete(relation.orgId, relation.id)
  await emitRelation(ctx, 'project_relation.deleted', relation, { relation })
}

async function relatedProject(ctx: OperationContext, projectId: ProjectId): Promise<Project> {
  const project = await ctx.store.projects.get(currentOrg(ctx).id, projectId, await ctx.scope())
  if (!project) {
    throw referenceNotFound(
      '/body/relatedProjectId',
      'The related project does not exist or is not visible to you.',
      'No such project',
    )
  }
  return project as Project
}

/** A side of the relation: the project, or one of its milestones. */
async function anchor(
  ctx: OperationContext,
  project: Pick<Project, 'id' | 'orgId'>,
  milestoneId: MilestoneId | null,
  pointer: string,
): Promise<RelationEnd> {
  if (milestoneId) {
    const milestone = await ctx.store.milestones.get(project.orgId, milestoneId)
    if (!milestone || milestone.projectId !== project.id) {
      throw referenceNotFound(
        pointer,
        'The milestone is not a milestone of that project.',
        'Not a milestone of the project',
      )
    }
  }
  return { projectId: project.id, milestoneId }
}

function assertDistinct(from: RelationEnd, to: RelationEnd): void {
  if (from.projectId === to.projectId && from.milestoneId === to.milestoneId) {
    throw new ProblemError('rule_violated', 'A project or milestone cannot be related to itself.', {
      errors: [{ pointer: '/body/relatedProjectId', message: 'Must be another project or milestone' }],
    })
  }
}

const key = (r: RelationEnd) => r.milestoneId ?? r.projectId

async function assertNoDuplicate(
  ctx: OperationContext,
  from: RelationEnd,
  to: RelationEnd,
  exceptId?: ProjectRelationId,
): Promise<void> {
  const existing = await ctx.store.projectRelations.findBetween(
    currentOrg(ctx).id,
    key(from),
    key(to),
    exceptId,
  )
  if (existing) {
    throw new ProblemError(
      'already_exists',
      'These two are related already; update or delete that relation.',
      {
        extensions: { relationId: existing.id },
      },
    )
  }
}

/**
 * Refuses a `blocks` link that would close a cycle, naming its path. A project or milestone the
 * caller cannot view is counted in the path (null) but never named.
 */
async function assertAcyclic(
  ctx: OperationContext,
  from: RelationEnd,
  to: RelationEnd,
  exceptId?: ProjectRelationId,
): Promise<void> {
  const orgId = currentOrg(ctx).id
  const edges = (await ctx.store.projectRelations.blockingEdges(orgId)).filter((e) => e.id !== exceptId)
  const cycle = blockingCycle(edges, from, to)
  if (!cycle) return
  const named = await Promise.all(cycle.map((id) => visibleName(ctx, id)))
  const path = cycle.map((id, i) => (named[i] ? id : null))
  const names = named.map((n) => n ?? 'a project you cannot view')
  throw new ProblemError(
    'dependency_cycle',
    `${names[0]} cannot block ${names[1]}: ${names.join(' → ')} would be a cycle.`,
    { extensions: { path } },
  )
}

/** `Project` or `Project › Milestone` when the caller may view the project; null otherwise. */
async function visibleName(ctx: OperationContext, id: string): Promise<string | null> {
  const orgId = currentOrg(ctx).id
  const scope = await ctx.scope()
  if (id.startsWith('mile_')) {
    const milestone = await ctx.store.milestones.get(orgId, id as MilestoneId)
    const project = milestone && (await ctx.store.projects.get(orgId, milestone.projectId, scope))
    return project ? `${project.name} › ${milestone.name}` : null
  }
  return (await ctx.store.projects.get(orgId, id as ProjectId, scope))?.name ?? null
}

async function lock(ctx: OperationContext): Promise<void> {
  await ctx.store.locks.acquire(`project-relations:${currentOrg(ctx).id}`)
}

/** Filed under the source project's first team, like the project's own events. */
async function emitRelation(
  ctx: OperationContext,
  kind: string,
  relation: ProjectRelation,
  data: Record<string, unknown>,
): Promise<void> {
  const project = await unscopedProject(ctx, relation.projectId)
  const gone = kind === 'project_relation.deleted'
  await recordProjectHistory(ctx, project, [
    { field: 'relations', before: gone ? relation.id : null, after: gone ? null : relation.id },
  ])
  ctx.emit({
    kind,
    resourceType: 'project_relation',
    resourceId: relation.id,
    teamId: project.teamIds[0] as TeamId,
    data,
  })
}
