import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, StringEnum, Timestamp } from '../../kernel/schema-types.ts'

export const PROJECT_RELATION_TYPES = ['blocks', 'related'] as const
export type ProjectRelationType = (typeof PROJECT_RELATION_TYPES)[number]
export const ProjectRelationTypeSchema = StringEnum(PROJECT_RELATION_TYPES, {
  $id: 'ProjectRelationType',
  description:
    '`blocks`: the source (project, or its milestone) must end before the related side starts. `related`: a ' +
    'plain link, in no order.',
})

export const ProjectRelation = Type.Object(
  {
    id: IdSchema('ProjectRelationId'),
    orgId: IdSchema('OrgId'),
    type: ProjectRelationTypeSchema,
    projectId: IdSchema('ProjectId', 'The source project.'),
    milestoneId: Nullable(
      IdSchema('MilestoneId'),
      'A milestone of the source project the relation is anchored on; null for the whole project.',
    ),
    relatedProjectId: IdSchema('ProjectId', 'The project on the other end (may be the source project).'),
    relatedMilestoneId: Nullable(
      IdSchema('MilestoneId'),
      'A milestone of the related project the relation is anchored on; null for the whole project.',
    ),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When the relation was created.'),
    updatedAt: Timestamp('When the relation last changed.'),
  },
  { $id: 'ProjectRelation', additionalProperties: false },
)
export type ProjectRelation = Static<typeof ProjectRelation>
