import type { RecordRef } from '@workgraph/core/storage'
import type { GroupPurge, PurgePart } from '../purge-kinds.ts'

/** A deleted record's app properties go with it (every client's). */
const propertiesOf =
  (recordType: RecordRef['type']): PurgePart =>
  async (db, orgId, ids) => {
    await db
      .deleteFrom('recordProperties')
      .where('orgId', '=', orgId)
      .where('recordType', '=', recordType)
      .where('recordId', 'in', [...ids])
      .execute()
  }

export const connectorsPurge: GroupPurge = {
  group: 'connectors',
  owns: [],
  parts: {
    // A deleted task is never restored: its properties go although the row stays.
    task: propertiesOf('task'),
    async project(db, orgId, ids, purge) {
      await db
        .deleteFrom('linkedItems')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', [...ids])
        .execute()
      await propertiesOf('project')(db, orgId, ids, purge)
    },
    program: propertiesOf('program'),
    initiative: propertiesOf('initiative'),
  },
}
