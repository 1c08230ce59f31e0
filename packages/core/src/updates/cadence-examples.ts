import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

const settings = {
  project: { everyWeeks: 1, weekday: 'friday', hour: 9 },
  program: { everyWeeks: 2, weekday: 'monday', hour: 9 },
  initiative: { everyWeeks: 4, weekday: 'monday', hour: 9 },
  updatedAt: at,
}

const dueItem = {
  subjectType: 'project',
  subjectId: id('proj'),
  name: 'Launch',
  ownerId: id('mem'),
  lastUpdateAt: '2030-01-03T15:00:00.000Z',
  nextUpdateDueAt: '2030-01-10T09:00:00.000Z',
  overdue: true,
}

const request = {
  id: id('ureq'),
  orgId: id('org'),
  subjectType: 'initiative',
  subjectId: id('ini'),
  requesterId: id('mem', 1),
  recipientId: id('mem'),
  note: 'Is guided setup still on for March?',
  createdAt: at,
}

export const cadenceExamples = {
  settingsGet: { response: settings } satisfies OperationExamples,
  settingsUpdate: {
    request: { project: { everyWeeks: 1, weekday: 'friday' } },
    response: settings,
  } satisfies OperationExamples,
  due: { response: { data: [dueItem], nextCursor: null } } satisfies OperationExamples,
  request: {
    // The initiative's owner is asked (a project's lead, a program's owner).
    request: { subjectType: 'initiative', subjectId: id('ini'), note: request.note },
    response: request,
  } satisfies OperationExamples,
}
