import type { ProgramId } from '../kernel/ids.ts'
import { type Followable, followerOperations } from '../projects/followers.ts'
import { requireProgram } from './service.ts'

/** Programs are followed like projects: their subscribers hear of their status updates (docs/notifications.md). */
export const programFollowable: Followable = {
  recordType: 'program',
  name: 'Program',
  plural: 'programs',
  tag: 'Programs',
  recordPath: '/v1/orgs/{orgId}/programs/{programId}',
  idParam: 'programId',
  target: (id) => ({ type: 'program', id }),
  async require(ctx, id) {
    const program = await requireProgram(ctx, id as ProgramId)
    // Org-level, as the program's own events.
    return { id: program.id, teamId: null }
  },
}

export const programSubscriberOperations = followerOperations(programFollowable)
