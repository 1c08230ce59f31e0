import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { Initiative } from '../../initiatives/schemas.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, StringEnum, Timestamp } from '../../kernel/schema-types.ts'
import {
  MILESTONE_STATUSES,
  ProjectDate,
  ProjectStatusCategorySchema,
  UPDATE_HEALTH_VALUES,
} from '../../projects/schemas.ts'
import { Program } from '../schemas.ts'

export const InitiativeProgram = Type.Object(
  {
    initiativeId: IdSchema('InitiativeId'),
    programId: IdSchema('ProgramId'),
    addedAt: Timestamp('When it was linked to the initiative.'),
    program: Program,
  },
  {
    $id: 'InitiativeProgram',
    additionalProperties: false,
    description:
      'A program the initiative includes: the join record of `initiatives.programs.*`; `program` is the program as `programs.get` reads it, for display.',
  },
)
export type InitiativeProgram = Static<typeof InitiativeProgram>

export const ProgramInitiative = Type.Object(
  {
    id: IdSchema('InitiativeId', 'The initiative, as the entry’s id.'),
    addedBy: ActorIdSchema,
    addedAt: Timestamp('When the program was linked to it.'),
    initiative: Initiative,
  },
  {
    $id: 'ProgramInitiative',
    additionalProperties: false,
    description: 'An initiative that includes the program.',
  },
)
export type ProgramInitiative = Static<typeof ProgramInitiative>

export const TimelineMilestone = Type.Object(
  {
    id: IdSchema('MilestoneId'),
    name: Type.String(),
    targetDate: Nullable(ProjectDate, 'When the milestone should be reached.'),
    status: StringEnum(MILESTONE_STATUSES, { description: 'As `milestones.get` derives it for the caller.' }),
  },
  { $id: 'TimelineMilestone', additionalProperties: false },
)

export const TimelineProject = Type.Object(
  {
    id: IdSchema('ProjectId'),
    name: Type.String(),
    statusCategory: ProjectStatusCategorySchema,
    startDate: Nullable(ProjectDate, 'Planned start.'),
    targetDate: Nullable(ProjectDate, 'Planned end.'),
    health: Nullable(StringEnum(UPDATE_HEALTH_VALUES), 'The health of its latest unarchived status update.'),
    milestones: Type.Array(TimelineMilestone, {
      description: 'Every milestone of the project, in project order.',
    }),
  },
  { $id: 'TimelineProject', additionalProperties: false },
)

export const TimelineDependency = Type.Object(
  {
    id: IdSchema('ProjectRelationId'),
    projectId: IdSchema('ProjectId', 'The blocking side.'),
    milestoneId: Nullable(
      IdSchema('MilestoneId'),
      'Its milestone the relation is anchored on; null: the project.',
    ),
    relatedProjectId: IdSchema('ProjectId', 'The blocked side.'),
    relatedMilestoneId: Nullable(IdSchema('MilestoneId'), 'Its milestone; null: the project.'),
  },
  {
    $id: 'TimelineDependency',
    additionalProperties: false,
    description: 'A `blocks` relation: the blocking side must end before the blocked side starts.',
  },
)

export const Timeline = Type.Object(
  {
    projects: Type.Array(TimelineProject, {
      description:
        'The unarchived projects the caller can view, each once, by start date (undated last), then target ' +
        'date, name and id.',
    }),
    dependencies: Type.Array(TimelineDependency, {
      description: '`blocks` relations whose both ends are among `projects`, oldest first.',
    }),
    truncated: Type.Boolean({
      description: 'True when more than 200 projects qualified: the first 200 in that order are shown.',
    }),
  },
  {
    $id: 'Timeline',
    additionalProperties: false,
    description:
      'Projects and milestones with their dates and the dependencies between them, ready for a Gantt view.',
  },
)
export type Timeline = Static<typeof Timeline>
