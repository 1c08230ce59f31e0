import type { CustomField } from '../../fields/schemas.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { Task } from '../schemas.ts'

/**
 * How tasks sort by a custom field, exactly as storage orders them (cursors carry these keys).
 * Tasks without a value come last in both directions, then ties go by id:
 * - `number`: the number; a missing value as ±1e300.
 * - `select`: the option's place in the field's order, from 1; missing as 1,000,000 or 0.
 * - text, date, url, person: `'1'` followed by the value; missing as `'2'` or `'0'`, which sort
 *   after or before every `'1…'` key in any collation.
 * Multi-select fields do not sort (422 `rule_violated`).
 */
export type FieldSortKind = 'number' | 'rank' | 'text'

export function fieldSortKind(field: CustomField): FieldSortKind {
  if (field.type === 'multiSelect') {
    throw new ProblemError('rule_violated', 'Tasks cannot be sorted by a multi-select field.', {
      errors: [{ pointer: '/query/fieldSort', message: 'Multi-select fields do not sort' }],
    })
  }
  return field.type === 'number' ? 'number' : field.type === 'select' ? 'rank' : 'text'
}

export const MISSING_NUMBER = 1e300
export const MISSING_RANK = 1_000_000

/** The key a missing value sorts by, so that it comes last in both directions. */
export function missingFieldKey(kind: FieldSortKind, direction: 'asc' | 'desc'): string | number {
  if (kind === 'number') return direction === 'asc' ? MISSING_NUMBER : -MISSING_NUMBER
  if (kind === 'rank') return direction === 'asc' ? MISSING_RANK : 0
  return direction === 'asc' ? '2' : '0'
}

/** The sort key of a task for the field, as `missingFieldKey` and storage define it. */
export function fieldSortValue(task: Task, field: CustomField, direction: 'asc' | 'desc'): string | number {
  const kind = fieldSortKind(field)
  const value = task.fields[field.id]
  if (value === undefined) return missingFieldKey(kind, direction)
  if (kind === 'number') return value as number
  if (kind === 'rank') return field.options.findIndex((o) => o.id === value) + 1
  return `1${value as string}`
}
