import { Type } from '@sinclair/typebox'
import type { AnyOperation } from '../kernel/operation.ts'
import { resourceOperations } from '../kernel/resource.ts'
import { updateExample } from '../updates/examples.ts'
import { StatusUpdate, UpdateBody, UpdateHealthSchema } from '../updates/schemas.ts'
import { createUpdate } from '../updates/service.ts'
import './update-subject.ts'
import { exampleId as id } from '../kernel/examples.ts'

const programUpdate = {
  ...updateExample,
  id: id('upd', 1),
  subjectType: 'program',
  subjectId: id('prg'),
  body: 'Error budget back under target after the cache rollout.',
  health: 'onTrack',
}

/**
 * A program's updates: the updates group's resource through the program entry of its subject
 * registry. Only posting differs; listing is `updates.list?subjectType=program&subjectId=`, and reading,
 * editing, archiving and deleting one go through the shared item path
 * (`projectUpdates.get/update/archive/restore/delete`).
 */
export const programUpdateOperations: AnyOperation[] = resourceOperations({
  name: 'program update',
  plural: 'programUpdates',
  summaries: { create: 'Post a status update on a program' },
  tag: 'Status updates',
  schema: StatusUpdate,
  collectionPath: '/v1/orgs/{orgId}/programs/{programId}/updates',
  itemPath: '/v1/orgs/{orgId}/updates',
  idParam: 'updateId',
  idBrand: 'UpdateId',
  target: (p) => ({ type: 'update', id: p.updateId! }),
  createTarget: (p) => ({ type: 'program', id: p.programId! }),
  capabilities: { create: 'contribute' },
  createBody: Type.Object({ body: UpdateBody, health: UpdateHealthSchema }, { additionalProperties: false }),
  errors: { create: ['archived'] },
  descriptions: {
    create:
      'Posts an update with its health on the program (needs `contribute` on it); it records the progress of the ' +
      'program’s projects as the author sees it then. The latest unarchived update gives the program its ' +
      '`health`. Read, edit, archive and delete it with `projectUpdates.get/update/archive/restore/delete`.',
  },
  examples: {
    create: { request: { body: programUpdate.body, health: 'onTrack' }, response: programUpdate },
  },
  handlers: {
    create: (ctx, p, body) => createUpdate(ctx, 'program', p.programId!, body),
  },
})
