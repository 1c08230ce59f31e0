import type { AnyOperation } from '../../kernel/operation.ts'
import { subjectUpdateCreate } from '../../updates/operations.ts'
import { examples } from '../examples.ts'
import { initiativePath } from '../operations.ts'

/**
 * Posting an initiative's status update; listing is `updates.list?subjectType=initiative&subjectId=`, and
 * every other act on the update goes through the shared `updates.*` item operations.
 */
export const initiativeUpdateOperations: AnyOperation[] = [
  subjectUpdateCreate({
    subjectType: 'initiative',
    plural: 'initiatives',
    tag: 'Status updates',
    itemPath: initiativePath,
    idParam: 'initiativeId',
    description:
      'Needs `contribute` on the initiative; it records the initiative’s rolled-up progress as the author sees ' +
      'it then. The latest unarchived update gives the initiative its `health`.',
    examples: examples.updateCreate,
  }),
]
