import type { TSchema } from '@sinclair/typebox'
import { recordData, sameData } from '../kernel/event-data.ts'
import { Export, Import } from './schemas.ts'

/**
 * The `data` of export and import events, as exports.ts and imports.ts emit it. The import job's
 * `import.progressed`, `import.completed` and `import.failed` are not typed here.
 */
export const TRANSFER_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(['export.created', 'export.completed'], recordData('export', Export)),
  ...sameData(['import.created', 'import.canceled'], recordData('import', Import)),
}
