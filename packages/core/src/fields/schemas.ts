import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { Color } from '../teams/schemas.ts'

/** What a custom field holds; each type validates and stores its values its own way (values.ts). */
export const CUSTOM_FIELD_TYPES = [
  'text',
  'number',
  'date',
  'select',
  'multiSelect',
  'person',
  'url',
] as const
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]
export const CustomFieldTypeSchema = StringEnum(CUSTOM_FIELD_TYPES, {
  $id: 'CustomFieldType',
  description:
    '`text` (up to 2,000 characters), `number`, `date` (`YYYY-MM-DD`), `select` (one option id), ' +
    '`multiSelect` (option ids), `person` (a MemberId), `url` (http or https).',
})

/** The kinds of record a field can be set on. */
export const CUSTOM_FIELD_RECORD_KINDS = ['task', 'project'] as const
export type CustomFieldRecordKind = (typeof CUSTOM_FIELD_RECORD_KINDS)[number]
export const CustomFieldRecordKindSchema = StringEnum(CUSTOM_FIELD_RECORD_KINDS, {
  $id: 'CustomFieldRecordKind',
})

/** The most options a select field holds: the sort on a select field ranks them in one expression. */
export const CUSTOM_FIELD_OPTIONS_MAX = 100
export const TEXT_VALUE_MAX = 2000

export const CustomFieldName = Name('The field name, unique among the org’s active fields.', 100)
export const OptionName = Name('The option label, unique within the field.', 100)

export const CustomFieldOption = Type.Object(
  {
    id: IdSchema('CustomFieldOptionId'),
    name: OptionName,
    color: Nullable(Color),
    disabled: Type.Boolean({
      description: 'A disabled option stays on the records that carry it but cannot be chosen again.',
    }),
  },
  { $id: 'CustomFieldOption', additionalProperties: false },
)
export type CustomFieldOption = Static<typeof CustomFieldOption>

export const CustomField = Type.Object(
  {
    id: IdSchema('CustomFieldId'),
    orgId: IdSchema('OrgId'),
    name: CustomFieldName,
    description: Nullable(Type.String({ maxLength: 2000 }), 'What the field is for.'),
    type: CustomFieldTypeSchema,
    recordKinds: Type.Array(CustomFieldRecordKindSchema, {
      minItems: 1,
      uniqueItems: true,
      description: 'Which records take the field: tasks, projects or both.',
    }),
    teamIds: Type.Array(IdSchema('TeamId'), {
      uniqueItems: true,
      maxItems: 100,
      description:
        'The teams whose tasks (and projects) take the field; empty: every team of the org. A project takes it ' +
        'when one of its teams is listed.',
    }),
    options: Type.Array(CustomFieldOption, {
      maxItems: CUSTOM_FIELD_OPTIONS_MAX,
      description:
        'For `select` and `multiSelect`: the options in display (and sort) order; empty otherwise.',
    }),
    createdAt: Timestamp('When the field was defined.'),
    updatedAt: Timestamp('When the definition or its options last changed.'),
    archivedAt: NullableTimestamp(
      'When the field was archived: its values are kept but hidden, and it cannot be set.',
    ),
  },
  { $id: 'CustomField', additionalProperties: false },
)
export type CustomField = Static<typeof CustomField>

/** A value as the API carries it: a string (text, date, url, select, person), a number, or option ids. */
export const CustomFieldValue = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: TEXT_VALUE_MAX }),
    Type.Number(),
    Type.Array(IdSchema('CustomFieldOptionId'), {
      minItems: 1,
      maxItems: CUSTOM_FIELD_OPTIONS_MAX,
      uniqueItems: true,
    }),
  ],
  {
    $id: 'CustomFieldValue',
    description:
      'As the field’s type says: text, url and date as strings, a `select` as its option id, a `person` as a ' +
      'MemberId, a number, or a `multiSelect` as an array of option ids.',
  },
)
export type CustomFieldValue = Static<typeof CustomFieldValue>

/** A record's values by field id: only fields set on it, and only active (unarchived) fields. */
export const CustomFieldValues = Type.Record(
  Type.String({ pattern: '^cf_[0-9A-HJKMNP-TV-Z]{26}$' }),
  CustomFieldValue,
  {
    $id: 'CustomFieldValues',
    description: 'Custom field values by CustomFieldId; a field without a value is left out.',
  },
)
export type CustomFieldValues = Static<typeof CustomFieldValues>

/** Values to write by field id: a value sets the field, null clears it (task create and update). */
export const FieldValuesInput = Type.Record(
  Type.String({ pattern: '^cf_[0-9A-HJKMNP-TV-Z]{26}$' }),
  Type.Union([CustomFieldValue, Type.Null()]),
  {
    maxProperties: 50,
    description:
      'Custom field values by CustomFieldId: a value sets the field, null clears it; fields left out keep ' +
      'their value. Each field must be active and apply to the task’s team (422 `field_not_applicable`).',
  },
)
