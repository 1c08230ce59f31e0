import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type CustomFieldId, type CustomFieldOptionId, newId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../kernel/ordering.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { archivedFilter } from '../teams/service.ts'
import {
  CUSTOM_FIELD_OPTIONS_MAX,
  type CustomField,
  type CustomFieldOption,
  type CustomFieldRecordKind,
  type CustomFieldType,
} from './schemas.ts'
import type { CustomFieldFilter } from './storage.ts'

export interface OptionInput {
  name: string
  color?: string | null
}

export interface ListCustomFieldsQuery {
  cursor?: string
  limit?: number
  teamId?: TeamId
  recordKind?: CustomFieldRecordKind
  archived?: 'exclude' | 'only' | 'include'
}

/** Field definitions are org metadata: every member may read them. */
export async function listCustomFields(
  ctx: OperationContext,
  query: ListCustomFieldsQuery,
): Promise<Page<CustomField>> {
  const orgId = currentOrg(ctx).id
  const filter: CustomFieldFilter = { archived: archivedFilter(query.archived) }
  if (query.teamId) filter.teamId = query.teamId
  if (query.recordKind) filter.recordKind = query.recordKind
  return readPage(ctx, {
    scope: ['customFields.list', orgId, filter],
    query,
    sort: 'name',
    direction: 'asc',
    keyOf: (f: CustomField) => f.name,
    fetch: (page) => ctx.store.customFields.list(orgId, filter, page),
  })
}

export async function requireCustomField(ctx: OperationContext, id: CustomFieldId): Promise<CustomField> {
  const field = await ctx.store.customFields.get(currentOrg(ctx).id, id)
  if (!field) throw notFound('CustomField')
  return field
}

export async function createCustomField(
  ctx: OperationContext,
  input: {
    name: string
    description?: string | null
    type: CustomFieldType
    recordKinds?: CustomFieldRecordKind[]
    teamIds?: TeamId[]
    options?: OptionInput[]
  },
): Promise<CustomField> {
  const orgId = currentOrg(ctx).id
  const options = input.options ?? []
  if (options.length && !hasOptions(input.type)) {
    throw invalid('/body/options', 'Only `select` and `multiSelect` fields have options.')
  }
  assertDistinctNames(
    options.map((o) => o.name),
    '/body/options',
  )
  await lockNames(ctx)
  await assertNameFree(ctx, input.name, null)
  const field: CustomField = {
    id: newId('CustomFieldId'),
    orgId,
    name: input.name,
    description: input.description ?? null,
    type: input.type,
    recordKinds: input.recordKinds ?? ['task'],
    teamIds: await checkTeams(ctx, input.teamIds ?? []),
    options: options.map(newOption),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.customFields.insert(field)
  emitField(ctx, 'custom_field.created', field, { customField: field })
  return field
}

export async function updateCustomField(
  ctx: OperationContext,
  id: CustomFieldId,
  fields: { name?: string; description?: string | null; teamIds?: TeamId[] },
): Promise<CustomField> {
  const field = await editable(ctx, id)
  const changed: Partial<CustomField> = {}
  if (fields.name !== undefined && fields.name !== field.name) changed.name = fields.name
  if (fields.description !== undefined && fields.description !== field.description)
    changed.description = fields.description
  if (fields.teamIds !== undefined && !sameSet(fields.teamIds, field.teamIds))
    changed.teamIds = await checkTeams(ctx, fields.teamIds)
  if (Object.keys(changed).length === 0) return field
  if (changed.name !== undefined) {
    await lockNames(ctx)
    await assertNameFree(ctx, changed.name, field.id)
  }
  return save(ctx, field, changed)
}

/** Archived fields keep their values, hidden from records and lists, and cannot be set. */
export async function setCustomFieldArchived(
  ctx: OperationContext,
  id: CustomFieldId,
  archived: boolean,
): Promise<CustomField> {
  const field = await requireCustomField(ctx, id)
  if (Boolean(field.archivedAt) === archived) return field
  // Restoring brings the name back: it must still be free.
  if (!archived) {
    await lockNames(ctx)
    await assertNameFree(ctx, field.name, field.id)
  }
  const patch = { archivedAt: archived ? ctx.now : null, updatedAt: ctx.now }
  await ctx.store.customFields.update(field.orgId, field.id, patch)
  const next = { ...field, ...patch }
  emitField(ctx, archived ? 'custom_field.archived' : 'custom_field.restored', next, { customField: next })
  return next
}

export async function addOption(
  ctx: OperationContext,
  id: CustomFieldId,
  input: OptionInput & { position?: number },
): Promise<CustomField> {
  const field = await withOptions(ctx, id)
  if (field.options.length >= CUSTOM_FIELD_OPTIONS_MAX) {
    throw invalid('/body', `A field holds at most ${CUSTOM_FIELD_OPTIONS_MAX} options.`)
  }
  assertDistinctNames([...field.options.map((o) => o.name), input.name], '/body/name')
  const options = [...field.options]
  options.splice(input.position ?? options.length, 0, newOption(input))
  return save(ctx, field, { options })
}

export async function updateOption(
  ctx: OperationContext,
  id: CustomFieldId,
  optionId: CustomFieldOptionId,
  input: { name?: string; color?: string | null; disabled?: boolean },
): Promise<CustomField> {
  const field = await withOptions(ctx, id)
  const index = field.options.findIndex((o) => o.id === optionId)
  if (index < 0) throw notFound('CustomFieldOption')
  const option = field.options[index]!
  const next = { ...option, ...defined(input) }
  if (JSON.stringify(next) === JSON.stringify(option)) return field
  assertDistinctNames(
    field.options.map((o, i) => (i === index ? next.name : o.name)),
    '/body/name',
  )
  const options = field.options.map((o, i) => (i === index ? next : o))
  return save(ctx, field, { options })
}

/**
 * Moves an option just before or after another option of the same field: the order records show
 * and sort by. A move that changes nothing writes and emits nothing.
 */
export async function moveOption(
  ctx: OperationContext,
  id: CustomFieldId,
  optionId: CustomFieldOptionId,
  to: MoveTo,
): Promise<CustomField> {
  const field = await withOptions(ctx, id)
  if (!field.options.some((o) => o.id === optionId)) throw notFound('CustomFieldOption')
  const { order, moved } = placeMoved(field.options, optionId, to, 'another option of the same field')
  if (!moved) return field
  return save(ctx, field, { options: order })
}

async function save(ctx: OperationContext, field: CustomField, changed: Partial<CustomField>) {
  const patch = { ...changed, updatedAt: ctx.now }
  await ctx.store.customFields.update(field.orgId, field.id, patch)
  const next = { ...field, ...patch }
  emitField(ctx, 'custom_field.updated', next, { customField: next, changes: changesOf(field, changed) })
  return next
}

async function editable(ctx: OperationContext, id: CustomFieldId): Promise<CustomField> {
  const field = await requireCustomField(ctx, id)
  if (field.archivedAt) throw new ProblemError('archived', 'The custom field is archived; restore it first.')
  return field
}

async function withOptions(ctx: OperationContext, id: CustomFieldId): Promise<CustomField> {
  const field = await editable(ctx, id)
  if (!hasOptions(field.type)) {
    throw new ProblemError('rule_violated', 'Only `select` and `multiSelect` fields have options.', {
      errors: [{ pointer: '/params/fieldId', message: `A ${field.type} field has no options` }],
    })
  }
  return field
}

export function hasOptions(type: CustomFieldType): boolean {
  return type === 'select' || type === 'multiSelect'
}

function newOption(input: OptionInput): CustomFieldOption {
  return { id: newId('CustomFieldOptionId'), name: input.name, color: input.color ?? null, disabled: false }
}

/** Every team must be a team of the org (archived ones too: a field may outlive a team's activity). */
async function checkTeams(ctx: OperationContext, teamIds: TeamId[]): Promise<TeamId[]> {
  const orgId = currentOrg(ctx).id
  for (const [i, teamId] of teamIds.entries()) {
    if (!(await ctx.store.teams.get(orgId, teamId, UNSCOPED))) {
      throw referenceNotFound(
        `/body/teamIds/${i}`,
        'The team does not exist in this workspace.',
        'No such team',
      )
    }
  }
  return teamIds
}

function assertDistinctNames(names: string[], pointer: string): void {
  const seen = new Set<string>()
  for (const name of names) {
    const key = name.trim().toLowerCase()
    if (seen.has(key)) throw invalid(pointer, `Two options are named “${name}”.`)
    seen.add(key)
  }
}

async function lockNames(ctx: OperationContext): Promise<void> {
  await ctx.store.locks.acquire(`custom-field-names:${currentOrg(ctx).id}`)
}

async function assertNameFree(ctx: OperationContext, name: string, self: CustomFieldId | null) {
  const other = await ctx.store.customFields.findByName(currentOrg(ctx).id, name)
  if (other && other.id !== self) {
    throw new ProblemError(
      'custom_field_name_taken',
      `An active custom field is already named “${other.name}”.`,
      {
        errors: [{ pointer: '/body/name', message: 'Name in use' }],
      },
    )
  }
}

function invalid(pointer: string, message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer, message }] })
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x))
}

/** Definitions are org-wide: their events are filed under no team. */
function emitField(ctx: OperationContext, kind: string, field: CustomField, data: Record<string, unknown>) {
  ctx.emit({ kind, resourceType: 'custom_field', resourceId: field.id, teamId: null, data })
}
