import { Type } from '@sinclair/typebox'
import { sameChange } from '../kernel/history-entry.ts'
import { CustomFieldValue } from './schemas.ts'

/** The history branch of custom field entries, `fields.<CustomFieldId>` (`fieldChangeEntries` writes them). */
export const CUSTOM_FIELD_CHANGE = sameChange(
  Type.Union([CustomFieldValue, Type.Null()], {
    description: 'The value, or null when the field had (or has) none.',
  }),
  'A custom field’s value changed: `field` is `fields.<CustomFieldId>`; null when it had or has no value.',
)

/** `historyEntrySchema`'s `prefixed` option for custom field entries. */
export const customFieldEntries = {
  prefix: 'fields.',
  idPattern: 'cf_[0-9A-HJKMNP-TV-Z]{26}',
  change: CUSTOM_FIELD_CHANGE,
  name: 'CustomField',
} as const
