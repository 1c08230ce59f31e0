import type { CustomFieldId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { CustomField, CustomFieldRecordKind, CustomFieldValue, CustomFieldValues } from './schemas.ts'

export interface CustomFieldFilter {
  /** false: only active fields (the default); true: only archived ones; null: both. */
  archived: boolean | null
  /** Fields that apply to this team: those listing it and those of every team. */
  teamId?: string
  recordKind?: CustomFieldRecordKind
}

export interface CustomFieldRepo {
  insert(field: CustomField): Promise<void>
  get(orgId: OrgId, id: CustomFieldId): Promise<CustomField | null>
  /** The fields with these ids (any order); unknown ids are left out. */
  getMany(orgId: OrgId, ids: readonly CustomFieldId[]): Promise<CustomField[]>
  /** An active field of that name, compared case-insensitively. */
  findByName(orgId: OrgId, name: string): Promise<CustomField | null>
  /** Fields by name, then id. */
  list(orgId: OrgId, filter: CustomFieldFilter, page: PageRequest<'name'>): Promise<CustomField[]>
  update(
    orgId: OrgId,
    id: CustomFieldId,
    patch: Partial<
      Pick<CustomField, 'name' | 'description' | 'teamIds' | 'options' | 'updatedAt' | 'archivedAt'>
    >,
  ): Promise<void>
}

/** Where a value sits: a task or a project of the org. */
export interface ValueHolder {
  orgId: OrgId
  kind: CustomFieldRecordKind
  id: string
}

export interface CustomFieldValueRepo {
  /** Stores the value of the field on the record, replacing any earlier one. */
  set(holder: ValueHolder, field: CustomField, value: CustomFieldValue, at: string): Promise<void>
  /** Returns false when the record had no value for the field. */
  clear(holder: ValueHolder, fieldId: CustomFieldId): Promise<boolean>
  /** The values of active fields on these records, by record id (records without values are left out). */
  valuesOf(
    orgId: OrgId,
    kind: CustomFieldRecordKind,
    ids: readonly string[],
  ): Promise<Map<string, CustomFieldValues>>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Per-org custom field definitions with their select options. */
    customFields: CustomFieldRepo
    /** Custom field values on tasks and projects. */
    customFieldValues: CustomFieldValueRepo
  }
}
