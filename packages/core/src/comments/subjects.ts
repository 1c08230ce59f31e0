import { HOLDERS } from '../documents/holders.ts'
import { requireDocument } from '../documents/service.ts'
import { documentTargets } from '../documents/targets.ts'
import { requireInitiative } from '../initiatives/service.ts'
import { initiativeTargets } from '../initiatives/targets.ts'
import type { HookReader } from '../kernel/hooks.ts'
import type {
  DocumentId,
  InitiativeId,
  MilestoneId,
  OrgId,
  ProgramId,
  ProjectId,
  TaskId,
  TeamId,
  UpdateId,
} from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { requireProgram } from '../programs/service.ts'
import { programContainers } from '../programs/targets.ts'
import { requireMilestone } from '../projects/milestones/milestones.ts'
import { requireProject } from '../projects/service.ts'
import { projectTargets } from '../projects/targets.ts'
import { requireTask } from '../tasks/require-task.ts'
import { taskTargets } from '../tasks/targets.ts'
import { requireUpdate } from '../updates/service.ts'
import { updateSubject } from '../updates/subjects.ts'
import { updateTargets } from '../updates/targets.ts'
import type { CommentSubjectType } from './schemas.ts'

/** A subject as the caller may view it, with the team its events are filed under. */
export interface SubjectView {
  id: string
  /** Whoever can read an event filed under this team can view the subject; null files it org-wide (programs, initiatives and their updates). */
  teamId: TeamId | null
  /** The task, for a task; null otherwise. */
  taskId: TaskId | null
}

/**
 * How comments reach one kind of subject. A new kind (documents) adds one entry here: the
 * item operations (`comments.get/update/delete/resolve/…`, comment reactions), storage and events
 * stay as they are, and the subject gains its `…comments.list/create`.
 */
export interface CommentSubject {
  /** For problem details and summaries: `task`, `project`. */
  name: string
  /** The operation id prefix of its `list`/`create`: `tasks.comments`, `projects.comments`. */
  operations: string
  /** The collection under which its record lives, and the path parameter naming it. */
  path: string
  param: string
  /** The subject as the caller may view it; 404 otherwise (a deleted task counts as missing). */
  require(ctx: OperationContext, id: string): Promise<SubjectView>
  /** The containers holding the subject, for capability checks on its comments. */
  containers(store: Store, orgId: OrgId, id: string, hook: HookReader): Promise<Container[] | null>
}

export const COMMENT_SUBJECTS: Record<CommentSubjectType, CommentSubject> = {
  task: {
    name: 'task',
    operations: 'tasks.comments',
    path: 'tasks',
    param: 'taskId',
    async require(ctx, id) {
      const task = await requireTask(ctx, id as TaskId)
      return { id: task.id, teamId: task.teamId, taskId: task.id }
    },
    containers: taskTargets.task.containers,
  },
  project: {
    name: 'project',
    operations: 'projects.comments',
    path: 'projects',
    param: 'projectId',
    async require(ctx, id) {
      const project = await requireProject(ctx, id as ProjectId)
      return { id: project.id, teamId: project.teamIds[0] as TeamId, taskId: null }
    },
    containers: projectTargets.project.containers,
  },
  milestone: {
    name: 'milestone',
    operations: 'milestones.comments',
    path: 'milestones',
    param: 'milestoneId',
    async require(ctx, id) {
      const milestone = await requireMilestone(ctx, id as MilestoneId)
      const project = await requireProject(ctx, milestone.projectId)
      return { id: milestone.id, teamId: project.teamIds[0] as TeamId, taskId: null }
    },
    containers: projectTargets.milestone.containers,
  },
  update: {
    name: 'status update',
    operations: 'updates.comments',
    path: 'updates',
    param: 'updateId',
    async require(ctx, id) {
      const update = await requireUpdate(ctx, id as UpdateId)
      const teamId = await updateSubject(ctx.hook, update.subjectType).eventTeam(
        ctx.store,
        update.orgId,
        update.subjectId,
      )
      return { id: update.id, teamId, taskId: null }
    },
    containers: updateTargets.update.containers,
  },
  // Programs and initiatives file their events org-wide, as their own events.
  program: {
    name: 'program',
    operations: 'programs.comments',
    path: 'programs',
    param: 'programId',
    async require(ctx, id) {
      const program = await requireProgram(ctx, id as ProgramId)
      return { id: program.id, teamId: null, taskId: null }
    },
    containers: programContainers,
  },
  initiative: {
    name: 'initiative',
    operations: 'initiatives.comments',
    path: 'initiatives',
    param: 'initiativeId',
    async require(ctx, id) {
      const initiative = await requireInitiative(ctx, id as InitiativeId)
      return { id: initiative.id, teamId: null, taskId: null }
    },
    containers: initiativeTargets.initiative.containers,
  },
  // A document's thread is filed where its events are: under its holder's team.
  document: {
    name: 'document',
    operations: 'documents.comments',
    path: 'documents',
    param: 'documentId',
    async require(ctx, id) {
      const document = await requireDocument(ctx, id as DocumentId)
      const teamId = await HOLDERS[document.holderType].eventTeam(
        ctx.store,
        document.orgId,
        document.holderId,
      )
      return { id: document.id, teamId, taskId: null }
    },
    containers: documentTargets.document.containers,
  },
}
