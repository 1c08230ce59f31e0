import { Type } from '@sinclair/typebox'
import type { MilestoneId, ProjectId } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { resourceOperations } from '../kernel/resource.ts'
import { Name, Nullable } from '../kernel/schema-types.ts'
import { milestoneExamples } from './examples.ts'
import {
  createMilestone,
  deleteMilestone,
  listMilestones,
  requireMilestone,
  updateMilestone,
} from './milestones.ts'
import { Milestone, ProjectDate } from './schemas.ts'

const MilestoneName = Name('Unique (ignoring case) within the project.', 200)
const Description = Nullable(Type.String({ maxLength: 10_000 }), 'Markdown.')

export const milestoneOperations: AnyOperation[] = resourceOperations({
  name: 'milestone',
  plural: 'milestones',
  tag: 'Projects',
  schema: Milestone,
  collectionPath: '/v1/orgs/{orgId}/projects/{projectId}/milestones',
  itemPath: '/v1/orgs/{orgId}/milestones',
  idParam: 'milestoneId',
  idBrand: 'MilestoneId',
  target: (p) => ({ type: 'milestone', id: p.milestoneId! }),
  createTarget: (p) => ({ type: 'project', id: p.projectId! }),
  capabilities: { create: 'contribute', update: 'contribute', delete: 'contribute' },
  createBody: Type.Object(
    {
      name: MilestoneName,
      description: Type.Optional(Description),
      targetDate: Type.Optional(Nullable(ProjectDate)),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      name: Type.Optional(MilestoneName),
      description: Type.Optional(Description),
      targetDate: Type.Optional(Nullable(ProjectDate)),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  errors: { create: ['conflict', 'archived'], update: ['conflict'] },
  descriptions: {
    list: 'In order (`position`), each with its `status` derived from the tasks the caller may view.',
    get: 'With its derived `status`; a milestone of a project the caller cannot view is a 404.',
    create: 'Added last in the project; the name is unique in the project, ignoring case.',
    delete: 'Its tasks stay in the project without a milestone.',
  },
  examples: milestoneExamples,
  handlers: {
    list: (ctx, p, query) => listMilestones(ctx, p.projectId as ProjectId, query),
    get: (ctx, p) => requireMilestone(ctx, p.milestoneId as MilestoneId),
    create: (ctx, p, body) => createMilestone(ctx, p.projectId as ProjectId, body),
    update: (ctx, p, body) => updateMilestone(ctx, p.milestoneId as MilestoneId, body),
    delete: (ctx, p) => deleteMilestone(ctx, p.milestoneId as MilestoneId),
  },
})
