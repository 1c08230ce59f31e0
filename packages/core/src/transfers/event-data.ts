import type { TSchema } from '@sinclair/typebox'
import { recordData, sameData } from '../kernel/event-data.ts'
import { Export, Import } from './schemas.ts'

/**
 * The `data` of export and import events, as exports.ts, imports.ts and the import job emit it:
 * the record as it is after the change (the job's events carry its progress and counts).
 */
export const TRANSFER_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(['export.created', 'export.completed'], recordData('export', Export)),
  ...sameData(
    ['import.created', 'import.canceled', 'import.progressed', 'import.completed', 'import.failed'],
    recordData('import', Import),
  ),
}
