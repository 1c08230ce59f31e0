import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { changedData, EventChanges, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { OPEN_TASK_POLICIES } from './closing.ts'
import { ProjectRelation } from './relations/schemas.ts'
import { Milestone, Project, ProjectStatus } from './schemas.ts'

/** What followers.ts writes when someone subscribes to, or unsubscribes from, a project, program or initiative. */
export const followerEventData = (recordType: 'project' | 'program' | 'initiative'): TObject =>
  Type.Object({
    recordType: Type.Literal(recordType),
    recordId: Type.String({ description: `The ${recordType}'s id.` }),
    actorId: Type.String({ description: 'The member or agent subscribed or unsubscribed.' }),
  })

const TaskIds = (description: string) => Type.Array(IdSchema('TaskId'), { description })
const RelationIds = Type.Array(IdSchema('ProjectRelationId'), {
  description: 'The relations deleted with it.',
})

/** Closing (close.ts): the changes, the open tasks' policy, and a cancellation's reason. */
const closedData = (reason: boolean) =>
  Type.Object({
    project: Project,
    changes: EventChanges,
    openTasks: Nullable(
      StringEnum(OPEN_TASK_POLICIES),
      'What happened to the open tasks; null when there were none to settle.',
    ),
    ...(reason ? { reason: Type.Optional(Type.String({ description: 'Why it was canceled.' })) } : {}),
  })

/** The `data` of project, milestone, relation and status events, as the projects group's services emit it. */
export const PROJECT_EVENT_DATA: Record<string, TSchema> = {
  'project.created': recordData('project', Project),
  'project.updated': changedData('project', Project),
  ...sameData(['project.archived', 'project.restored'], recordData('project', Project)),
  'project.deleted': Type.Object({
    id: IdSchema('ProjectId'),
    name: Type.String(),
    taskIds: TaskIds('The tasks that lost the project.'),
    relationIds: RelationIds,
  }),
  'project.completed': closedData(false),
  'project.canceled': closedData(true),
  ...sameData(
    ['project.team_added', 'project.team_removed'],
    Type.Object({ project: Project, teamId: IdSchema('TeamId') }),
  ),
  ...sameData(
    ['project.member_added', 'project.member_removed'],
    Type.Object({ projectId: IdSchema('ProjectId'), memberId: IdSchema('MemberId') }),
  ),
  ...sameData(['project_subscriber.created', 'project_subscriber.deleted'], followerEventData('project')),
  'milestone.created': recordData('milestone', Milestone),
  'milestone.updated': changedData('milestone', Milestone),
  'milestone.moved': Type.Object({
    milestone: Milestone,
    order: Type.Array(IdSchema('MilestoneId'), {
      description: "The project's milestones in their new order.",
    }),
  }),
  'milestone.deleted': Type.Object({
    id: IdSchema('MilestoneId'),
    name: Type.String(),
    projectId: IdSchema('ProjectId'),
    taskIds: TaskIds('The tasks that lost the milestone.'),
    relationIds: RelationIds,
  }),
  ...sameData(
    ['project_relation.created', 'project_relation.deleted'],
    recordData('relation', ProjectRelation),
  ),
  'project_relation.updated': changedData('relation', ProjectRelation),
  'project_status.created': recordData('status', ProjectStatus),
  ...sameData(
    ['project_status.updated', 'project_status.archived', 'project_status.restored'],
    changedData('status', ProjectStatus),
  ),
  'project_status.moved': Type.Object({
    status: ProjectStatus,
    order: Type.Array(IdSchema('ProjectStatusId'), {
      description: "The org's active statuses in their new order.",
    }),
  }),
}
