import { Type } from '@sinclair/typebox'
import { IdSchema, type MilestoneId, type ProjectId, type ProjectRelationId } from '../../kernel/ids.ts'
import type { AnyOperation } from '../../kernel/operation.ts'
import { resourceOperations } from '../../kernel/resource.ts'
import { Nullable } from '../../kernel/schema-types.ts'
import { relationExamples } from './examples.ts'
import {
  createProjectRelation,
  deleteProjectRelation,
  listProjectRelations,
  requireProjectRelation,
  updateProjectRelation,
} from './relations.ts'
import { ProjectRelation, ProjectRelationTypeSchema } from './schemas.ts'

const milestoneAnchor = (side: string) =>
  Type.Optional(
    Nullable(
      IdSchema('MilestoneId'),
      `A milestone of the ${side} project to anchor on; null for the whole project.`,
    ),
  )

const relationOperations: AnyOperation[] = resourceOperations({
  name: 'project relation',
  plural: 'projectRelations',
  collectionPlural: 'projects.relations',
  summaries: { list: "List a project's relations" },
  tag: 'Projects',
  schema: ProjectRelation,
  collectionPath: '/v1/orgs/{orgId}/projects/{projectId}/relations',
  itemPath: '/v1/orgs/{orgId}/project-relations',
  idParam: 'relationId',
  idBrand: 'ProjectRelationId',
  target: (p) => ({ type: 'project_relation', id: p.relationId! }),
  createTarget: (p) => ({ type: 'project', id: p.projectId! }),
  // Delete needs `contribute` on either end: its target below holds the containers of both projects.
  capabilities: { create: 'contribute', update: 'contribute', delete: 'contribute' },
  requires: { delete: '`view` on both projects, and `contribute` on either of them' },
  createBody: Type.Object(
    {
      type: ProjectRelationTypeSchema,
      milestoneId: milestoneAnchor('source (path)'),
      relatedProjectId: IdSchema('ProjectId', 'The other project; the caller must be able to view it.'),
      relatedMilestoneId: milestoneAnchor('related'),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      type: Type.Optional(ProjectRelationTypeSchema),
      milestoneId: milestoneAnchor('source'),
      relatedMilestoneId: milestoneAnchor('related'),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  errors: {
    create: [
      'not_found',
      'archived',
      'reference_not_found',
      'already_exists',
      'dependency_cycle',
      'rule_violated',
    ],
    update: ['reference_not_found', 'already_exists', 'dependency_cycle', 'rule_violated'],
  },
  descriptions: {
    list:
      'The relations with the project on either end (`projectId` or `relatedProjectId`), oldest first. A relation ' +
      'whose other project the caller cannot view is left out; the project still counts such blockers in ' +
      '`openBlockers`.',
    get: 'A relation is visible when the caller can view the projects on both its ends; otherwise 404.',
    create:
      'Relates the project, or one of its milestones (`milestoneId`), to another project or milestone of any ' +
      'team. `blocks` means the source must end before the related side starts; a `blocks` link that would close ' +
      'a cycle (through projects and their milestones) is refused with 409 `dependency_cycle`, whose `path` lists ' +
      'the records along the cycle: null for each one the caller cannot view, which the message does not name. Two ' +
      'records are related at most once (409 `already_exists`). Needs `contribute` on the project and view on the ' +
      'other one. A project or milestone cannot be related to itself (422 `rule_violated`).',
    update:
      'Changes the type or the milestone anchors; the two projects stay. A `blocks` result is checked for cycles ' +
      'again. Needs `contribute` on the source project. A project or milestone cannot be related to itself (422 `rule_violated`).',
    delete:
      'Needs `contribute` on either project: the source, or the related (for `blocks`, the blocked) one. A relation ' +
      'the caller cannot view (one end hidden) is a 404.',
  },
  examples: relationExamples,
  handlers: {
    list: (ctx, p, query) => listProjectRelations(ctx, p.projectId as ProjectId, query),
    get: (ctx, p) => requireProjectRelation(ctx, p.relationId as ProjectRelationId),
    create: (ctx, p, body) =>
      createProjectRelation(ctx, p.projectId as ProjectId, {
        type: body.type,
        milestoneId: body.milestoneId as MilestoneId | null | undefined,
        relatedProjectId: body.relatedProjectId as ProjectId,
        relatedMilestoneId: body.relatedMilestoneId as MilestoneId | null | undefined,
      }),
    update: (ctx, p, body) =>
      updateProjectRelation(ctx, p.relationId as ProjectRelationId, {
        type: body.type,
        milestoneId: body.milestoneId as MilestoneId | null | undefined,
        relatedMilestoneId: body.relatedMilestoneId as MilestoneId | null | undefined,
      }),
    delete: (ctx, p) => deleteProjectRelation(ctx, p.relationId as ProjectRelationId),
  },
})

/** Either end may drop a relation: its delete checks `contribute` on the containers of both projects. */
export const projectRelationOperations: AnyOperation[] = relationOperations.map((op) =>
  op.id === 'projectRelations.delete'
    ? { ...op, target: ({ params }) => ({ type: 'project_relation_ends', id: params.relationId as string }) }
    : op,
)
