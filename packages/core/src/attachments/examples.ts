import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.

export const attachmentExample = {
  id: id('att'),
  orgId: id('org'),
  recordType: 'task',
  recordId: id('tsk'),
  fileName: 'ledger-diagram.png',
  contentType: 'image/png',
  size: 48213,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  uploaderId: id('mem'),
  createdAt: '2030-01-13T16:00:00.000Z',
}

export const attachmentExamples: Record<'create' | 'list' | 'get' | 'download', OperationExamples> = {
  create: { response: attachmentExample },
  list: { response: { data: [attachmentExample], nextCursor: null } },
  get: { response: attachmentExample },
  download: { response: 'The bytes of the file, as uploaded.' },
}
