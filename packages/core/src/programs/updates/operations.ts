import { exampleId as id } from '../../kernel/examples.ts'
import type { AnyOperation } from '../../kernel/operation.ts'
import { updateExample } from '../../updates/examples.ts'
import { subjectUpdateCreate } from '../../updates/operations.ts'
import { programPath } from '../operations.ts'

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
 * editing, archiving and deleting one go through the shared `updates.*` item operations.
 */
export const programUpdateOperations: AnyOperation[] = [
  subjectUpdateCreate({
    subjectType: 'program',
    plural: 'programs',
    tag: 'Status updates',
    itemPath: programPath,
    idParam: 'programId',
    description:
      'Posts an update with its health on the program (needs `contribute` on it); it records the progress of the ' +
      'program’s projects as the author sees it then. The latest unarchived update gives the program its `health`.',
    examples: { request: { body: programUpdate.body, health: 'onTrack' }, response: programUpdate },
  }),
]
