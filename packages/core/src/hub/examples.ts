import type { OperationExamples } from '../kernel/operation.ts'
import { notificationExample } from '../notifications/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const id = (prefix: string, n = 0) => `${prefix}_01JD3Q2R4S5T6V7W8X9YZABC${'DEFGH'[n]}E`
const at = '2030-01-13T16:00:00.000Z'
const cursor = 'eyJzIjoiLi4uIn0.c2lnbmF0dXJl'

export const hubExamples: Record<'search' | 'inbox' | 'activity' | 'resolve', OperationExamples> = {
  search: {
    response: {
      data: [
        {
          orgId: id('org'),
          type: 'task',
          id: id('task'),
          key: 'ENG-42',
          title: 'Fix the login redirect',
          snippet: 'Users land on a blank page after login when the session expired.',
          score: 1,
          parent: { type: 'team', id: id('team') },
          updatedAt: at,
        },
        {
          orgId: id('org', 1),
          type: 'comment',
          id: id('cmt'),
          key: null,
          title: null,
          snippet: 'The login redirect also breaks on mobile.',
          score: 0.82,
          parent: { type: 'task', id: id('task', 1) },
          updatedAt: at,
        },
      ],
      nextCursor: cursor,
      partial: [{ orgId: id('org', 2), code: 'timeout' }],
    },
  },
  inbox: { response: { data: [notificationExample], nextCursor: null, partial: [] } },
  activity: {
    response: {
      data: [
        {
          id: id('evt'),
          orgId: id('org'),
          seq: 1204,
          kind: 'task.updated',
          actorId: id('mem'),
          resourceType: 'task',
          resourceId: id('task'),
          teamId: id('team'),
          data: { task: { id: id('task'), title: 'Fix the login redirect' }, changes: {} },
          createdAt: at,
        },
      ],
      nextCursor: cursor,
      partial: [],
    },
  },
  resolve: {
    response: {
      data: [
        { orgId: id('org'), type: 'task', id: id('task'), key: 'ENG-42', title: 'Fix the login redirect' },
      ],
      partial: [],
    },
  },
}
