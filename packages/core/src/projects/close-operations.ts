import { Type } from '@sinclair/typebox'
import type { ProjectId, ProjectStatusId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { type ClosedCategory, closeProject } from './close.ts'
import { OPEN_TASK_POLICIES } from './closing.ts'
import { closeExamples } from './examples.ts'
import { Project } from './schemas.ts'

const projectPath = '/v1/orgs/{orgId}/projects/{projectId}'

function closeOperation(verb: 'complete' | 'cancel', category: ClosedCategory): AnyOperation {
  const path = `${projectPath}/${verb}`
  return declareOperation({
    id: `projects.${verb}`,
    method: 'POST',
    path,
    tag: 'Projects',
    scope: 'work:write',
    summary: verb === 'complete' ? 'Complete a project' : 'Cancel a project',
    description:
      `Moves an open project into \`statusId\` (an active \`${category}\` status) or the org's first active ` +
      `\`${category}\` status, and stamps \`${category}At\`. While open tasks exist (any task not completed, ` +
      'canceled or archived, hidden ones counted) `openTasks` is required, else 409 `open_work` with the counts: ' +
      "`keep` leaves them; `cancel` moves each to its team's first `canceled` state; `move` puts each in " +
      '`moveTasksTo`. The caller needs `contribute` on every open task (403 before anything changes). Milestones ' +
      'stay; their status is computed from their tasks. A project already completed or canceled answers 409 ' +
      `\`conflict\` (reopen with \`projects.update\`). Emits \`project.${category}\`, and \`task.updated\` per task moved.`,
    params: Type.Object(paramsOf(path), { additionalProperties: false }),
    body: Type.Object(
      {
        statusId: Type.Optional(IdSchema('ProjectStatusId', `An active \`${category}\` status.`)),
        openTasks: Type.Optional(
          StringEnum(OPEN_TASK_POLICIES, { description: 'What happens to the open tasks.' }),
        ),
        moveTasksTo: Type.Optional(
          IdSchema('ProjectId', 'With `openTasks: "move"`: the project the open tasks go to.'),
        ),
        ...(verb === 'cancel'
          ? {
              reason: Type.Optional(
                Type.String({
                  minLength: 1,
                  maxLength: 2000,
                  description: 'Why: carried by the `project.canceled` event.',
                }),
              ),
            }
          : {}),
      },
      { additionalProperties: false },
    ),
    response: Project,
    status: 200,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'project', id: params.projectId as string }),
    errors: ['not_found', 'archived', 'conflict', 'open_work', 'reference_not_found'],
    examples: closeExamples[verb],
    run: (ctx, { params, body }) =>
      closeProject(ctx, params.projectId as ProjectId, category, {
        ...(body as { openTasks?: (typeof OPEN_TASK_POLICIES)[number]; reason?: string }),
        statusId: (body as { statusId?: string }).statusId as ProjectStatusId | undefined,
        moveTasksTo: (body as { moveTasksTo?: string }).moveTasksTo as ProjectId | undefined,
      }),
  })
}

export const projectCloseOperations: AnyOperation[] = [
  closeOperation('complete', 'completed'),
  closeOperation('cancel', 'canceled'),
]
