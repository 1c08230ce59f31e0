import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../../kernel/body-fields.ts'
import type { MilestoneId, ProjectId } from '../../kernel/ids.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { paramsOf, resourceOperations, subListOperation } from '../../kernel/resource.ts'
import { StringEnum } from '../../kernel/schema-types.ts'
import { Task } from '../../tasks/schemas.ts'
import { examples, milestoneExample, milestoneExamples } from '../examples.ts'
import { Milestone } from '../schemas.ts'
import {
  createMilestone,
  deleteMilestone,
  listMilestones,
  moveMilestone,
  requireMilestone,
  updateMilestone,
} from './milestones.ts'

// The bodies take the milestone's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(Milestone, { description: true, targetDate: true })

const milestoneResource: AnyOperation[] = resourceOperations({
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
    { ...fieldsOf(Milestone, { name: true }), ...editable },
    { $id: 'MilestoneCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    { ...optionalFieldsOf(Milestone, { name: true }), ...editable },
    { $id: 'MilestoneUpdate', additionalProperties: false, minProperties: 1 },
  ),
  errors: { create: ['conflict', 'archived'], update: ['conflict'] },
  descriptions: {
    list: 'In order (`position`), each with its `status` and `progress` derived from the tasks the caller may view.',
    get: 'With its derived `status` and `progress`; a milestone of a project the caller cannot view is a 404.',
    create: 'Added last in the project; the name is unique in the project, ignoring case.',
    delete: 'Its tasks stay in the project without a milestone; the relations anchored on it are deleted.',
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

const milestonePath = '/v1/orgs/{orgId}/milestones/{milestoneId}'

const milestoneExtras: AnyOperation[] = [
  declareOperation({
    id: 'milestones.move',
    method: 'POST',
    path: `${milestonePath}/move`,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Move a milestone before or after another',
    description:
      'Puts the milestone just before `beforeId` or just after `afterId` (exactly one), another milestone of the ' +
      "same project; the project's positions are renumbered from 0, so `next` may change. A move that changes " +
      'nothing emits nothing. Needs `contribute` on the project.',
    params: Type.Object(paramsOf(milestonePath), { additionalProperties: false }),
    body: MoveBody('MilestoneId', 'milestone'),
    response: Milestone,
    status: 200,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'milestone', id: params.milestoneId as string }),
    errors: ['not_found', 'reference_not_found'],
    examples: {
      request: { afterId: 'mile_01JD3Q2R4S5T6V7W8X9YZABCEE' },
      response: { ...milestoneExample, position: 1, status: 'unstarted' },
    },
    run: (ctx, { params, body }) =>
      moveMilestone(ctx, params.milestoneId as MilestoneId, {
        beforeId: body.beforeId as MilestoneId | undefined,
        afterId: body.afterId as MilestoneId | undefined,
      }),
  }),
]

export const milestoneOperations: AnyOperation[] = [...milestoneResource, ...milestoneExtras]
