import type { ProjectId, TeamId } from '../kernel/ids.ts'
import { type Followable, followerOperations } from './followers.ts'
import { requireProject } from './service.ts'

/** Projects are followed like tasks: their subscribers hear of status updates (docs/notifications.md). */
export const projectFollowable: Followable = {
  recordType: 'project',
  name: 'Project',
  plural: 'projects',
  tag: 'Projects',
  recordPath: '/v1/orgs/{orgId}/projects/{projectId}',
  idParam: 'projectId',
  target: (id) => ({ type: 'project', id }),
  async require(ctx, id) {
    const project = await requireProject(ctx, id as ProjectId)
    return { id: project.id, teamId: (project.teamIds[0] ?? null) as TeamId | null }
  },
}

export const projectSubscriberOperations = followerOperations(projectFollowable)
