import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-13T16:00:04.000Z'

const queued = {
  id: id('exp'),
  orgId: id('org'),
  status: 'queued',
  counts: {},
  bytes: 0,
  error: null,
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
  completedAt: null,
}
const done = {
  ...queued,
  status: 'completed',
  counts: { workspace: 1, member: 3, team: 1, workflow_state: 6, label: 4, task: 120 },
  bytes: 98304,
  updatedAt: later,
  completedAt: later,
}

export const exportExamples: Record<'list' | 'get' | 'create' | 'download', OperationExamples> = {
  create: { request: {}, response: queued },
  list: { response: { data: [done], nextCursor: null } },
  get: { response: done },
  download: {
    response:
      `{"type":"workspace","format":"workgraph.export.v1","orgId":"${id('org')}","name":"Acme","exportedAt":"${at}"}\n` +
      `{"type":"team","id":"${id('team')}","orgId":"${id('org')}","name":"Engineering","key":"ENG"}\n`,
  },
}

const importQueued = {
  id: id('imp'),
  orgId: id('org'),
  format: 'csv',
  teamId: id('team'),
  status: 'queued',
  dryRun: false,
  sourceUrl: null,
  totalRows: 3,
  processedRows: 0,
  linkedRows: 0,
  createdCount: 0,
  updatedCount: 0,
  skippedCount: 0,
  errorCount: 0,
  error: null,
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
  completedAt: null,
}
const importDone = {
  ...importQueued,
  status: 'completed',
  processedRows: 3,
  createdCount: 2,
  errorCount: 1,
  updatedAt: later,
  completedAt: later,
}

export const importExamples: Record<'list' | 'get' | 'create' | 'errors' | 'cancel', OperationExamples> = {
  create: {
    request: {
      format: 'csv',
      teamId: id('team'),
      content:
        'title,state,assignee email,priority,labels,due date,estimate\n' +
        'Fix login,In Progress,ada@example.com,high,"bug, auth",2030-02-01,3\n' +
        'Write docs,Todo,,low,docs,,\n' +
        'Broken row,Nowhere,,,,,\n',
    },
    response: importQueued,
  },
  list: { response: { data: [importDone], nextCursor: null } },
  get: { response: importDone },
  errors: {
    response: {
      data: [
        {
          row: 3,
          line: 4,
          field: 'state',
          message: 'The team has no state named `Nowhere`.',
          refused: true,
        },
      ],
      nextCursor: null,
    },
  },
  cancel: {
    response: { ...importQueued, status: 'canceled', updatedAt: later, completedAt: later },
  },
}
