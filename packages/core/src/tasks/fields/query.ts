import { Type } from '@sinclair/typebox'
import type { CustomField } from '../../fields/schemas.ts'
import { currentOrg } from '../../kernel/context.ts'
import { IdSchema, isId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { referenceNotFound } from '../../kernel/references.ts'
import type { TaskFilter } from '../storage.ts'

/** The custom field filter and sort of `tasks.list` (docs/custom-fields.md). */
export const TaskFieldQuery = {
  fieldId: Type.Optional(
    IdSchema('CustomFieldId', 'Only tasks with a value for this custom field (see `fieldValue`).'),
  ),
  fieldValue: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'With `fieldId`: only tasks whose value equals this one (a number for a number field, an option id ' +
        'for a select, an option id the task holds for a multi-select, a MemberId for a person field); ' +
        '`none` for tasks without a value. Without `fieldId`, or not a number for a number field: 422 `rule_violated`.',
    }),
  ),
  fieldSort: Type.Optional(
    Type.String({
      pattern: '^-?cf_[0-9A-HJKMNP-TV-Z]{26}$',
      description:
        'Sort by a custom field instead of `sort`: a CustomFieldId, descending with a leading `-`. Select fields ' +
        'sort in their option order; tasks without a value come last in both directions; ties go by id. ' +
        'Not with `sort`, and not by a multi-select field (else 422 `rule_violated`).',
    }),
  ),
}

export interface TaskFieldQueryValues {
  fieldId?: string
  fieldValue?: string
  fieldSort?: string
  sort?: string
}

/** Resolves the custom field filter and sort into the task filter; answers the sort's direction. */
export async function applyFieldQuery(
  ctx: OperationContext,
  query: TaskFieldQueryValues,
  filter: TaskFilter,
): Promise<'asc' | 'desc' | null> {
  if (query.fieldValue !== undefined && query.fieldId === undefined) {
    throw invalid('/query/fieldId', '`fieldValue` needs `fieldId`.')
  }
  if (query.fieldId) {
    const field = await activeField(ctx, query.fieldId, '/query/fieldId')
    filter.customField = { field }
    if (query.fieldValue !== undefined) filter.customField.equals = parseValue(field, query.fieldValue)
  }
  if (!query.fieldSort) return null
  if (query.sort !== undefined) throw invalid('/query/fieldSort', 'Give `sort` or `fieldSort`, not both.')
  const descending = query.fieldSort.startsWith('-')
  filter.sortField = await activeField(ctx, query.fieldSort.replace('-', ''), '/query/fieldSort')
  return descending ? 'desc' : 'asc'
}

export async function activeField(ctx: OperationContext, id: string, pointer: string): Promise<CustomField> {
  const field = isId('CustomFieldId', id) ? await ctx.store.customFields.get(currentOrg(ctx).id, id) : null
  if (!field) {
    throw referenceNotFound(pointer, 'No custom field has this id in this workspace.', 'No such custom field')
  }
  if (field.archivedAt) {
    throw new ProblemError('archived', `The custom field “${field.name}” is archived.`, {
      errors: [{ pointer, message: 'Archived field' }],
    })
  }
  return field
}

function parseValue(field: CustomField, raw: string): string | number | null {
  if (raw === 'none') return null
  if (field.type !== 'number') return raw
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n)) throw invalid('/query/fieldValue', 'Expected a number')
  return n
}

function invalid(pointer: string, message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer, message }] })
}
