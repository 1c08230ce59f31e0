import { type TProperties, Type } from '@sinclair/typebox'
import type { CustomFieldId, CustomFieldOptionId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { MoveBody } from '../kernel/ordering.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Color } from '../teams/schemas.ts'
import { customFieldExamples, optionExamples } from './examples.ts'
import {
  CUSTOM_FIELD_OPTIONS_MAX,
  CustomField,
  CustomFieldName,
  CustomFieldRecordKindSchema,
  CustomFieldTypeSchema,
  OptionName,
} from './schemas.ts'
import {
  addOption,
  createCustomField,
  listCustomFields,
  moveOption,
  requireCustomField,
  setCustomFieldArchived,
  updateCustomField,
  updateOption,
} from './service.ts'

const TAG = 'Custom fields'
const collectionPath = '/v1/orgs/{orgId}/custom-fields'
const fieldPath = `${collectionPath}/{fieldId}`
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const fid = (p: Record<string, string>) => p.fieldId as CustomFieldId
const onOrg = () => ({ type: 'org' as const })
const Description = Nullable(Type.String({ maxLength: 2000 }), 'What the field is for.')
const TeamIds = Type.Array(IdSchema('TeamId'), {
  uniqueItems: true,
  maxItems: 100,
  description: 'The teams whose records take the field; empty: every team.',
})
const OptionInput = Type.Object(
  { name: OptionName, color: Type.Optional(Nullable(Color)) },
  { additionalProperties: false },
)
const archivedRule = 'An archived field cannot be changed: restore it first.'

const definitions = resourceOperations({
  name: 'custom field',
  plural: 'customFields',
  summaries: { list: 'List custom fields' },
  tag: TAG,
  schema: CustomField,
  collectionPath,
  idParam: 'fieldId',
  idBrand: 'CustomFieldId',
  target: onOrg,
  createTarget: onOrg,
  capabilities: { create: 'manage', update: 'manage', archive: 'manage', restore: 'manage' },
  createBody: Type.Object(
    {
      name: CustomFieldName,
      description: Type.Optional(Description),
      type: CustomFieldTypeSchema,
      recordKinds: Type.Optional(
        Type.Array(CustomFieldRecordKindSchema, {
          minItems: 1,
          uniqueItems: true,
          default: ['task'],
          description: 'Which records take the field; tasks when left out. Fixed once created.',
        }),
      ),
      teamIds: Type.Optional(TeamIds),
      options: Type.Optional(
        Type.Array(OptionInput, {
          maxItems: CUSTOM_FIELD_OPTIONS_MAX,
          description: 'For `select` and `multiSelect`: the first options, in order.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      name: Type.Optional(CustomFieldName),
      description: Type.Optional(Description),
      teamIds: Type.Optional(TeamIds),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    teamId: Type.Optional(
      IdSchema('TeamId', 'Only fields that apply to this team: its own and those of every team.'),
    ),
    recordKind: Type.Optional(CustomFieldRecordKindSchema),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived fields: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['custom_field_name_taken', 'reference_not_found', 'rule_violated'],
    update: ['custom_field_name_taken', 'reference_not_found', 'archived'],
    restore: ['custom_field_name_taken'],
  },
  descriptions: {
    list: "The org's custom field definitions by name; every member reads them.",
    get: 'One definition with its options.',
    create:
      'Defines a field (needs `manage` on the org). Its type and record kinds are fixed; names are unique among ' +
      'active fields, compared case-insensitively. `options` only for `select` and `multiSelect` fields, with names unique within the field (else 422 `rule_violated`).',
    update: `Renames the field, changes its description or the teams it applies to. ${archivedRule}`,
    archive: 'Hides the field and its values from records and lists; the values are kept for a restore.',
    restore: 'Undoes `customFields.archive`; its name must still be free.',
  },
  examples: customFieldExamples,
  handlers: {
    list: (ctx, _p, query) => listCustomFields(ctx, query),
    get: (ctx, p) => requireCustomField(ctx, fid(p)),
    create: (ctx, _p, body) => createCustomField(ctx, body),
    update: (ctx, p, body) => updateCustomField(ctx, fid(p), body),
    archive: (ctx, p) => setCustomFieldArchived(ctx, fid(p), true),
    restore: (ctx, p) => setCustomFieldArchived(ctx, fid(p), false),
  },
})

const optionPath = `${fieldPath}/options/{optionId}`
const optionErrors = ['not_found', 'archived', 'rule_violated'] as const
const options: AnyOperation[] = [
  declareOperation({
    id: 'customFields.options.create',
    method: 'POST',
    path: `${fieldPath}/options`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Add an option to a select field',
    description: `Adds an option to a \`select\` or \`multiSelect\` field (at most ${CUSTOM_FIELD_OPTIONS_MAX}), at the end or at \`position\` (from 0); option names are unique within the field. Answers the field. ${archivedRule} Options are only for \`select\` and \`multiSelect\` fields, with names unique within the field (else 422 \`rule_violated\`).`,
    params: obj(paramsOf(fieldPath)),
    body: obj({
      name: OptionName,
      color: Type.Optional(Nullable(Color)),
      position: Type.Optional(Type.Integer({ minimum: 0, maximum: CUSTOM_FIELD_OPTIONS_MAX })),
    }),
    response: CustomField,
    status: 201,
    capability: 'manage',
    target: onOrg,
    errors: [...optionErrors],
    examples: optionExamples.create,
    run: (ctx, { params, body }) => addOption(ctx, fid(params), body),
  }),
  declareOperation({
    id: 'customFields.options.update',
    method: 'PATCH',
    path: optionPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Rename, recolour or disable an option',
    description:
      'A disabled option stays on the records that carry it and still sorts and filters, but cannot be chosen ' +
      `again until it is enabled. Answers the field. ${archivedRule} Only \`select\` and \`multiSelect\` fields have options, with names unique within the field (else 422 \`rule_violated\`).`,
    params: obj(paramsOf(optionPath)),
    body: Type.Object(
      {
        name: Type.Optional(OptionName),
        color: Type.Optional(Nullable(Color)),
        disabled: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: CustomField,
    status: 200,
    capability: 'manage',
    target: onOrg,
    errors: [...optionErrors],
    examples: optionExamples.update,
    run: (ctx, { params, body }) =>
      updateOption(ctx, fid(params), params.optionId as CustomFieldOptionId, body),
  }),
  declareOperation({
    id: 'customFields.options.move',
    method: 'POST',
    path: `${optionPath}/move`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Move an option before or after another',
    description:
      'Puts the option just before `beforeId` or just after `afterId` (exactly one), another option of the same field: ' +
      'the order records show and sort by. A `tasks.list` cursor sorting by this field stops working (400 ' +
      `\`invalid_cursor\`). A move that changes nothing emits nothing. Answers the field. ${archivedRule} Only \`select\` and \`multiSelect\` fields have options (else 422 \`rule_violated\`).`,
    params: obj(paramsOf(optionPath)),
    body: MoveBody('CustomFieldOptionId', 'option'),
    response: CustomField,
    status: 200,
    capability: 'manage',
    target: onOrg,
    errors: [...optionErrors, 'reference_not_found'],
    examples: optionExamples.move,
    run: (ctx, { params, body }) =>
      moveOption(ctx, fid(params), params.optionId as CustomFieldOptionId, {
        beforeId: body.beforeId as CustomFieldOptionId | undefined,
        afterId: body.afterId as CustomFieldOptionId | undefined,
      }),
  }),
]

/** Custom field definitions and their options; values go through `tasks.update` and `projects.update`: docs/custom-fields.md. */
export const customFieldOperations: AnyOperation[] = [...definitions, ...options]
