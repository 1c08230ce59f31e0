import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.

export const resolveExample: OperationExamples = {
  response: { kind: 'task', id: taskExample.id, label: `${taskExample.key} ${taskExample.title}` },
}

const regressionTest = 'Add a regression test for the expired-session redirect'

/**
 * ENG-42 goes to review with a follow-up: records named as people name them (the team, a state, a
 * label, `me`), by id, or by the `$handle` of what an earlier step created.
 */
export const applyExample: OperationExamples = {
  request: {
    steps: [
      {
        action: 'create_task',
        handle: 'test',
        team: 'Engineering',
        title: regressionTest,
        assignee: 'me',
        parent: taskExample.id,
        priority: 'high',
        estimate: 1,
      },
      { action: 'label_task', task: '$test', label: 'Bug' },
      { action: 'update_task', task: taskExample.id, state: 'In Review' },
      {
        action: 'comment',
        task: taskExample.id,
        body: 'Fix is in review; a subtask covers the regression test.',
      },
    ],
  },
  response: {
    dryRun: false,
    steps: [
      {
        step: 0,
        action: 'create_task',
        handle: 'test',
        type: 'task',
        id: id('task', 5),
        key: 'ENG-44',
        name: regressionTest,
        changed: ['team', 'title', 'assignee', 'parent', 'priority', 'estimate'],
      },
      {
        step: 1,
        action: 'label_task',
        handle: null,
        type: 'task',
        id: id('task', 5),
        key: 'ENG-44',
        name: regressionTest,
        changed: ['labels'],
      },
      {
        step: 2,
        action: 'update_task',
        handle: null,
        type: 'task',
        id: taskExample.id,
        key: taskExample.key,
        name: taskExample.title,
        changed: ['state'],
      },
      {
        step: 3,
        action: 'comment',
        handle: null,
        type: 'comment',
        id: id('cmt', 2),
        key: taskExample.key,
        name: taskExample.title,
        changed: ['comments'],
      },
    ],
  },
}
