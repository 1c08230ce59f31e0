import { currentOrg } from '../kernel/context.ts'
import type { CustomFieldId, MemberId, OrgId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import {
  type CustomField,
  type CustomFieldRecordKind,
  type CustomFieldValue,
  type CustomFieldValues,
  TEXT_VALUE_MAX,
} from './schemas.ts'
import { requireCustomField } from './service.ts'

/** A record that takes custom field values, as the checks need it. */
export interface FieldHolder {
  orgId: OrgId
  kind: CustomFieldRecordKind
  id: string
  /** The record's teams: a task's team, a project's teams. */
  teamIds: readonly TeamId[]
  fields: CustomFieldValues
}

/** One planned change of a record's value; `after` null clears it. */
export interface FieldChange {
  field: CustomField
  before: CustomFieldValue | null
  after: CustomFieldValue | null
}

/**
 * Checks a map of values (null clears) against the fields' definitions and the record, before
 * anything is written: every named field must exist, be active and apply to the record, and each
 * value must fit the field's type. Answers only the values that change. `read`: the named fields'
 * definitions, when the caller has read them.
 */
export async function planFieldValues(
  ctx: OperationContext,
  holder: FieldHolder,
  values: Record<string, CustomFieldValue | null>,
  pointer: string,
  read?: readonly CustomField[],
): Promise<FieldChange[]> {
  const changes: FieldChange[] = []
  for (const [fieldId, value] of Object.entries(values)) {
    const at = `${pointer}/${fieldId}`
    const field = await usableField(ctx, holder, fieldId as CustomFieldId, at, read)
    const before = holder.fields[field.id] ?? null
    const after = value === null ? null : await normalizeValue(ctx, field, value, at)
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ field, before, after })
  }
  return changes
}

/** Writes planned changes; the caller records history and emits the record's event. */
export async function writeFieldValues(ctx: OperationContext, holder: FieldHolder, changes: FieldChange[]) {
  for (const c of changes) {
    const target = { orgId: holder.orgId, kind: holder.kind, id: holder.id }
    if (c.after === null) await ctx.store.customFieldValues.clear(target, c.field.id)
    else await ctx.store.customFieldValues.set(target, c.field, c.after, ctx.now)
  }
}

/** The entries of a record's history and event for these changes: one per field, `fields.<id>`. */
export function fieldChangeEntries(changes: FieldChange[]) {
  return changes.map((c) => ({ field: `fields.${c.field.id}` as const, before: c.before, after: c.after }))
}

async function usableField(
  ctx: OperationContext,
  holder: FieldHolder,
  fieldId: CustomFieldId,
  pointer: string,
  read?: readonly CustomField[],
): Promise<CustomField> {
  // `read`: the caller's read of the named fields, where a missing one is absent.
  const field = read
    ? (read.find((f) => f.id === fieldId) ?? null)
    : await ctx.store.customFields.get(currentOrg(ctx).id, fieldId)
  if (!field) {
    throw referenceNotFound(pointer, 'No custom field has this id in this workspace.', 'No such custom field')
  }
  assertUsable(field, holder, pointer)
  return field
}

/** The field of a path parameter: 404 when unknown, then the same checks. */
export async function requireUsableField(
  ctx: OperationContext,
  holder: FieldHolder,
  fieldId: CustomFieldId,
): Promise<CustomField> {
  const field = await requireCustomField(ctx, fieldId)
  assertUsable(field, holder, '/params/fieldId')
  return field
}

function assertUsable(field: CustomField, holder: FieldHolder, pointer: string): void {
  if (field.archivedAt) {
    throw new ProblemError('archived', `The custom field “${field.name}” is archived; restore it first.`, {
      errors: [{ pointer, message: 'Archived field' }],
    })
  }
  const teamOk = field.teamIds.length === 0 || holder.teamIds.some((t) => field.teamIds.includes(t))
  if (!field.recordKinds.includes(holder.kind) || !teamOk) {
    const why = field.recordKinds.includes(holder.kind) ? `the record's team` : `${holder.kind}s`
    throw new ProblemError(
      'field_not_applicable',
      `The custom field “${field.name}” does not apply to ${why}.`,
      {
        errors: [{ pointer, message: 'Field does not apply here' }],
      },
    )
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** The value as stored and answered, or 400 naming what the field's type expects. */
export async function normalizeValue(
  ctx: OperationContext,
  field: CustomField,
  value: CustomFieldValue,
  pointer: string,
): Promise<CustomFieldValue> {
  const bad = (message: string) =>
    new ProblemError('rule_violated', `Custom field “${field.name}”: ${message}`, {
      errors: [{ pointer, message }],
    })
  switch (field.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad('Expected a number')
      return value
    case 'text': {
      if (typeof value !== 'string') throw bad('Expected a string')
      const text = value.trim()
      if (!text || text.length > TEXT_VALUE_MAX) throw bad(`Expected 1 to ${TEXT_VALUE_MAX} characters`)
      return text
    }
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || !validDate(value))
        throw bad('Expected YYYY-MM-DD')
      return value
    case 'url':
      if (typeof value !== 'string' || !httpUrl(value)) throw bad('Expected an http or https URL')
      return value
    case 'person': {
      if (typeof value !== 'string') throw bad('Expected a MemberId')
      const member = await ctx.store.members.get(currentOrg(ctx).id, value as MemberId)
      if (!member || member.status !== 'active') throw bad('Not an active member of this workspace')
      return value
    }
    case 'select':
      if (typeof value !== 'string') throw bad('Expected one option id')
      if (!chosen(field, value)) throw bad('Not an enabled option of the field')
      return value
    case 'multiSelect': {
      if (!Array.isArray(value)) throw bad('Expected an array of option ids')
      const picked = new Set(value)
      if (![...picked].every((id) => chosen(field, id))) throw bad('Not an enabled option of the field')
      // Stored in the field's option order, so equal sets compare equal.
      return field.options.filter((o) => picked.has(o.id)).map((o) => o.id)
    }
  }
}

function chosen(field: CustomField, optionId: string): boolean {
  return field.options.some((o) => o.id === optionId && !o.disabled)
}

function validDate(value: string): boolean {
  const d = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}
