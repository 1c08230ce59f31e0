import { Type } from '@sinclair/typebox'
import { sameChange } from '../kernel/history-entry.ts'
import { IdSchema } from '../kernel/ids.ts'
import type { CustomFieldValue } from './schemas.ts'

/**
 * A custom field's value in history, or null. Written as one schema with a list of types rather than
 * `anyOf` of `CustomFieldValue` and null: the reference page's document check (Scalar) refuses that
 * union inside a history branch. Generated clients still get `string | number | string[] | null`.
 */
const FieldValueOrNull = Type.Unsafe<CustomFieldValue | null>({
  type: ['string', 'number', 'array', 'null'],
  items: IdSchema('CustomFieldOptionId'),
  description:
    'The value as the field’s type says (text, url, date, select option id or MemberId as a string, a number, ' +
    'or a `multiSelect` as an array of option ids), or null when the field had (or has) none.',
})

/** The history branch of custom field entries, `fields.<CustomFieldId>` (`fieldChangeEntries` writes them). */
export const CUSTOM_FIELD_CHANGE = sameChange(
  FieldValueOrNull,
  'A custom field’s value changed: `field` is `fields.<CustomFieldId>`; null when it had or has no value.',
)

/** `historyEntrySchema`'s `prefixed` option for custom field entries. */
export const customFieldEntries = {
  prefix: 'fields.',
  idPattern: 'cf_[0-9A-HJKMNP-TV-Z]{26}',
  change: CUSTOM_FIELD_CHANGE,
  name: 'CustomField',
} as const
