import type { ResourceGroup } from '../kernel/group.ts'
import { TRANSFER_EVENT_DATA } from './event-data.ts'
import { transferOperations } from './operations.ts'

/** Workspace exports (NDJSON) and imports (a workgraph export, or a CSV of tasks). */
export const transfersGroup: ResourceGroup = {
  name: 'transfers',
  tags: [
    {
      name: 'Exports and imports',
      description:
        'Export the whole workspace as NDJSON, and import a workgraph export or a CSV of tasks; both run ' +
        'as resumable background jobs with progress, and imports keep per-row errors.',
    },
  ],
  operations: transferOperations,
  eventData: TRANSFER_EVENT_DATA,
  events: [
    {
      kinds: ['export.created', 'export.completed'],
      emittedBy: '`exports.create`; the export job when the last chunk is written (actor: none)',
    },
    {
      kinds: ['import.created', 'import.completed', 'import.failed'],
      emittedBy:
        '`imports.create`; the import job when the last row is handled, or when its starter can no longer manage the workspace',
    },
  ],
}
