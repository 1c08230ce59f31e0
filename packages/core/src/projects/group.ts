import type { ResourceGroup } from '../kernel/group.ts'
import { PROJECT_EVENT_DATA } from './event-data.ts'
import { projectHistoryOperations } from './history/operations.ts'
import { projectMemberOperations } from './members/operations.ts'
import { milestoneOperations } from './milestones/operations.ts'
import { projectOperations } from './operations.ts'
import { PROJECT_PROBLEMS } from './problems.ts'
import { projectRelationOperations } from './relations/operations.ts'
import { projectStatusOperations } from './statuses/operations.ts'
import { projectSubscriberOperations } from './subscriber-operations.ts'
import { projectTargets } from './targets.ts'
import { taskPlacementReader } from './task-placement.ts'

/** Projects: bounded efforts across teams, their statuses and milestones. */
export const projectsGroup: ResourceGroup = {
  name: 'projects',
  tags: [
    {
      name: 'Projects',
      description:
        'Bounded efforts spanning one or more teams: status, lead, dates, milestones, their tasks and progress.',
      agentWork: true,
    },
    {
      name: 'Project statuses',
      description:
        "The org's project statuses, each in a category (backlog, planned, started, paused, completed, canceled).",
    },
  ],
  operations: [
    ...projectOperations,
    ...projectSubscriberOperations,
    ...projectMemberOperations,
    ...projectHistoryOperations,
    ...milestoneOperations,
    ...projectRelationOperations,
    ...projectStatusOperations,
  ],
  problems: PROJECT_PROBLEMS,
  eventData: PROJECT_EVENT_DATA,
  events: [
    {
      kinds: [
        'project.created',
        'project.updated',
        'project.archived',
        'project.restored',
        'project.deleted',
        'project.completed',
        'project.canceled',
        'project.team_added',
        'project.team_removed',
        'project.member_added',
        'project.member_removed',
      ],
      emittedBy:
        "`projects.*`; filed under the project's first team (`team_added`/`team_removed`: the team). `member_added`/`member_removed` name the `memberId` (setting a lead adds them); `projects.labels.*` emit `project.updated` with `changes.labelIds`. `project.completed`/`project.canceled` (a `projects.update` whose `statusId` moves the project into a completed or canceled status, instead of `project.updated`) carry `changes`, the `openTasks` choice and, on cancel, the update's `reason`; `project.deleted` lists the `taskIds` that lost the project and the `relationIds` deleted with it",
    },
    {
      kinds: ['project_subscriber.created', 'project_subscriber.deleted'],
      emittedBy: '`projects.subscribers.*` (resource id: the project; filed under its first team)',
    },
    {
      kinds: ['milestone.created', 'milestone.updated', 'milestone.moved', 'milestone.deleted'],
      emittedBy:
        "`milestones.*`; `milestone.moved` carries the project's new `order`; `milestone.deleted` lists the `taskIds` " +
        'that lost the milestone and the `relationIds` deleted with it',
    },
    {
      kinds: ['project_relation.created', 'project_relation.updated', 'project_relation.deleted'],
      emittedBy: "`projectRelations.*`; filed under the source project's first team",
    },
    {
      kinds: [
        'project_status.created',
        'project_status.updated',
        'project_status.archived',
        'project_status.restored',
        'project_status.moved',
      ],
      emittedBy: '`projectStatuses.*` (org-level: every member reads them)',
    },
  ],
  targets: projectTargets,
  // The project and milestone lookups tasks need (tasks/project.ts).
  fills: { 'tasks.placement': taskPlacementReader },
}
