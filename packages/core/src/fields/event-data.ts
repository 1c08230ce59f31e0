import type { TSchema } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { CustomField } from './schemas.ts'

/** The `data` of custom field events, as service.ts emits it. */
export const FIELD_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(
    ['custom_field.created', 'custom_field.archived', 'custom_field.restored'],
    recordData('customField', CustomField),
  ),
  'custom_field.updated': changedData('customField', CustomField),
}
