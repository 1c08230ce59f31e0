import type { RecordRef } from '@workgraph/core/storage'
import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

/** A deleted record's app properties go with it (every client's). */
const propertiesOf = (recordType: RecordRef['type']) =>
  deleteRows(['recordProperties', 'recordId', ['recordType', recordType]])

export const connectorsPurge: GroupPurge = {
  group: 'connectors',
  owns: [],
  parts: {
    // A deleted task is never restored: its properties go although the row stays.
    task: propertiesOf('task'),
    project: deleteRows(
      ['linkedItems', 'projectId'],
      ['recordProperties', 'recordId', ['recordType', 'project']],
    ),
    program: propertiesOf('program'),
    initiative: propertiesOf('initiative'),
  },
}
