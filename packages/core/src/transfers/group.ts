import type { ResourceGroup } from '../kernel/group.ts'
import { TRANSFER_EVENT_DATA } from './event-data.ts'
import { transferOperations } from './operations.ts'

/** Workspace exports (NDJSON) and imports (a workgraph export, a CSV of tasks, Linear's CSV, GitHub's issues JSON). */
export const transfersGroup: ResourceGroup = {
  name: 'transfers',
  tags: [
    {
      name: 'Exports and imports',
      description:
        "Export the whole workspace as NDJSON, and import a workgraph export, a CSV of tasks, Linear's CSV export or GitHub's issues JSON; both run " +
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
      kinds: ['import.created', 'import.canceled'],
      emittedBy: '`imports.create`, `imports.cancel`',
    },
    {
      kinds: ['import.progressed', 'import.completed', 'import.failed'],
      emittedBy:
        'the import job (actor: none): every 50 rows and at the end of each pass, when the last row is handled, or when its starter can no longer manage the workspace',
    },
  ],
}
