import { Type } from '@sinclair/typebox'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { StatusUpdate, UpdateBody, UpdateHealthSchema } from '../updates/schemas.ts'
import { createUpdate, listUpdates } from '../updates/service.ts'
import { examples } from './examples.ts'
import { initiativeParams, initiativePath, initiativeTarget } from './operations.ts'
import './update-subject.ts'

const updatesPath = `${initiativePath}/updates`
/** An initiative's status updates: its collection; each update's own path is shared with projects'. */
export const initiativeUpdateOperations: AnyOperation[] = [
  declareOperation({
    id: 'initiativeUpdates.list',
    method: 'GET',
    path: updatesPath,
    tag: 'Status updates',
    scope: 'work:read',
    summary: "List an initiative's status updates",
    description:
      'Newest first; an initiative the caller cannot view is a 404. Each update is read, edited, archived, ' +
      'restored and deleted through `/updates/{updateId}` like a project’s (the `projectUpdates.*` item operations).',
    params: initiativeParams,
    query: Type.Object(
      {
        ...PageQuery,
        health: Type.Optional(UpdateHealthSchema),
        archived: Type.Optional(
          StringEnum(['exclude', 'only', 'include'] as const, {
            default: 'exclude',
            description: 'Archived updates: left out (default), only them, or both.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: PageOf(StatusUpdate, 'StatusUpdate'),
    status: 200,
    errors: ['not_found', 'invalid_cursor'],
    examples: examples.updates,
    run: (ctx, { params, query }) => listUpdates(ctx, 'initiative', params.initiativeId as string, query),
  }),
  declareOperation({
    id: 'initiativeUpdates.create',
    method: 'POST',
    path: updatesPath,
    tag: 'Status updates',
    scope: 'work:write',
    summary: 'Post a status update on an initiative',
    description:
      'Needs `contribute` on the initiative; it records the initiative’s rolled-up progress as the author sees ' +
      'it then. The latest unarchived update gives the initiative its `health`.',
    params: initiativeParams,
    body: Type.Object({ body: UpdateBody, health: UpdateHealthSchema }, { additionalProperties: false }),
    response: StatusUpdate,
    status: 201,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived'],
    location: 'projectUpdates.get',
    examples: examples.updateCreate,
    run: (ctx, { params, body }) => createUpdate(ctx, 'initiative', params.initiativeId as string, body),
  }),
]
