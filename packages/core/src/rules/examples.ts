import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

export const ruleExample = {
  id: id('rule'),
  orgId: id('org'),
  teamId: id('team'),
  name: 'Urgent bugs go to the on-call lead',
  enabled: true,
  trigger: { on: 'labelAdded', labelId: id('lbl') },
  conditions: { priority: 'urgent' },
  actions: [
    { type: 'setAssignee', value: id('mem') },
    { type: 'comment', value: 'Assigned to on-call by the *Urgent bugs* rule.' },
  ],
  authorId: id('mem', 1),
  createdAt: at,
  updatedAt: at,
}

export const ruleExamples: Record<'list' | 'get' | 'create' | 'update' | 'runs', OperationExamples> = {
  list: { response: { data: [ruleExample], nextCursor: null } },
  get: { response: ruleExample },
  create: {
    request: {
      name: ruleExample.name,
      trigger: ruleExample.trigger,
      conditions: ruleExample.conditions,
      actions: ruleExample.actions,
    },
    response: ruleExample,
  },
  update: {
    request: { enabled: false },
    response: { ...ruleExample, enabled: false, updatedAt: '2030-01-14T09:00:00.000Z' },
  },
  runs: {
    response: {
      data: [
        {
          id: id('rrun'),
          ruleId: id('rule'),
          taskId: id('task'),
          eventId: id('evt'),
          outcome: 'succeeded',
          error: null,
          depth: 1,
          createdAt: at,
        },
      ],
      nextCursor: null,
    },
  },
}
