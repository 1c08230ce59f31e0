import { Type } from '@sinclair/typebox'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { StatusUpdate, UpdateBody, UpdateHealthSchema } from '../updates/schemas.ts'
import { createUpdate } from '../updates/service.ts'
import { examples } from './examples.ts'
import { initiativeParams, initiativePath, initiativeTarget } from './operations.ts'
import './update-subject.ts'

const updatesPath = `${initiativePath}/updates`
/**
 * Posting an initiative's status update; listing is `updates.list?subjectType=initiative&subjectId=`, and each
 * update's own path is shared with projects'.
 */
export const initiativeUpdateOperations: AnyOperation[] = [
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
