import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { updateExample } from '../updates/examples.ts'

// Examples of the portfolio, agenda, updates and inbox batch reads; test/core/openapi.test.ts
// checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const cursor = 'eyJzIjoiLi4uIn0.c2lnbmF0dXJl'

export const hubMoreExamples: Record<
  'portfolio' | 'agenda' | 'updates' | 'inboxBatch' | 'typeahead' | 'digest',
  OperationExamples
> = {
  portfolio: {
    response: {
      data: [
        {
          orgId: id('org'),
          type: 'project',
          id: id('proj'),
          name: 'Launch',
          relations: ['lead'],
          status: 'started',
          health: 'atRisk',
          targetDate: '2030-03-31',
          progress: 0.4,
          blocked: false,
          nextMilestone: { id: id('mile'), name: 'Beta', targetDate: '2030-02-15' },
          lastUpdate: {
            id: id('upd'),
            health: 'atRisk',
            createdAt: at,
            excerpt: 'Beta scope is frozen. Risk: the billing migration slipped a week.',
          },
        },
        {
          orgId: id('org', 1),
          type: 'initiative',
          id: id('ini'),
          name: 'Self-serve onboarding',
          relations: ['follower'],
          status: 'active',
          health: null,
          targetDate: null,
          progress: null,
          blocked: false,
          nextMilestone: null,
          lastUpdate: null,
        },
      ],
      nextCursor: cursor,
      partial: [],
    },
  },
  agenda: {
    response: {
      from: '2030-01-13',
      to: '2030-01-19',
      data: [
        {
          date: '2030-01-13',
          kind: 'taskDue',
          orgId: id('org'),
          recordType: 'task',
          id: id('task', 8),
          title: 'Renew the TLS certificate of api.acme.example',
          time: null,
        },
        {
          date: '2030-01-13',
          kind: 'timeBlock',
          orgId: null,
          recordType: 'planItem',
          id: id('pli'),
          title: 'Write the quarterly review',
          time: { start: '09:00', end: '10:30' },
        },
        {
          date: '2030-01-17',
          kind: 'taskDue',
          orgId: id('org'),
          recordType: 'task',
          id: id('task'),
          title: 'Fix the login redirect',
          time: null,
        },
      ],
      partial: [],
    },
  },
  digest: {
    response: {
      since: '2030-01-06T16:00:00.000Z',
      data: [
        {
          orgId: id('org'),
          type: 'project',
          id: id('proj'),
          name: 'Launch',
          updates: [
            {
              id: id('upd'),
              health: 'atRisk',
              createdAt: at,
              excerpt: 'Beta scope is frozen. Risk: the billing migration slipped a week.',
            },
          ],
          healthChanges: [{ from: 'onTrack', to: 'atRisk', at }],
          statusChanges: [{ from: 'Planned', to: 'In Progress', at: '2030-01-08T09:00:00.000Z' }],
          milestonesCompleted: [{ id: id('mile', 2), name: 'Alpha', targetDate: '2030-01-10' }],
          tasksCompleted: {
            count: 1,
            items: [
              {
                id: id('task', 11),
                key: 'ENG-39',
                title: 'Show the beta banner to invited accounts',
                completedAt: '2030-01-09T12:00:00.000Z',
              },
            ],
          },
          changedAt: at,
        },
      ],
      partial: [],
    },
  },
  typeahead: {
    response: {
      data: [
        { orgId: id('org'), type: 'person', id: id('mem'), name: 'Ada Lovelace', key: null },
        { orgId: id('org'), type: 'project', id: id('proj'), name: 'Launch', key: null },
        { orgId: id('org'), type: 'task', id: id('task'), name: 'Fix the login redirect', key: 'ENG-42' },
      ],
      partial: [],
    },
  },
  updates: { response: { data: [updateExample], nextCursor: cursor, partial: [] } },
  inboxBatch: {
    request: {
      action: 'read',
      workspaces: [{ orgId: id('org') }, { orgId: id('org', 1), ids: [id('ntf')] }],
    },
    response: {
      data: [{ orgId: id('org'), updated: 4 }],
      partial: [{ orgId: id('org', 1), code: 'not_found' }],
    },
  },
}
