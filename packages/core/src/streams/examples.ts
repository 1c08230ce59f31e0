import { EXAMPLE_CURSOR, exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-14T11:20:00.000Z'

/** Ada moves ENG-42 to In Review: one `task.updated` with the fields that changed. */
const moved = {
  id: id('evt'),
  orgId: id('org'),
  seq: 1205,
  kind: 'task.updated',
  actorId: id('mem'),
  resourceType: 'task',
  resourceId: taskExample.id,
  teamId: taskExample.teamId,
  data: {
    task: { ...taskExample, stateId: id('wfs', 4), updatedAt: at },
    changes: { stateId: { before: taskExample.stateId, after: id('wfs', 4) } },
  },
  createdAt: at,
}

/** Always a `nextCursor`: poll again from it (with `wait` to hold an empty answer). */
export const streamExample: OperationExamples = {
  response: { data: [moved], nextCursor: EXAMPLE_CURSOR },
}
