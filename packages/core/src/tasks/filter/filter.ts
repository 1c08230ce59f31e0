import type { CustomField } from '../../fields/schemas.ts'
import type { LabelId, TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { activeField } from '../fields/query.ts'
import { searchTokens } from '../search/search.ts'
import type { ConditionOp, ConditionValue, TaskCondition, TaskFilterColumn } from './condition.ts'
import {
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_DEPTH,
  FILTER_MAX_VALUES,
  RELATIVE_PATTERN,
  type TaskFilterInput,
} from './schema.ts'

type Node = Record<string, unknown>
type Comparator = Record<string, unknown>

const DATE_COLUMNS = new Set(['dueDate', 'startDate'])
const INSTANT_COLUMNS = new Set(['createdAt', 'updatedAt', 'startedAt', 'completedAt', 'canceledAt'])
const RELATIVE = new RegExp(RELATIVE_PATTERN)
const COMBINATORS = new Set(['and', 'or', 'not'])

/**
 * Checks a filter's bounds (422 `rule_violated` at the first node past one) and turns it into the
 * condition storage runs: custom fields looked up (active, applying to tasks, values of their type),
 * relative times resolved against the request's time, `neq`/`nin`/`null: false` as negations.
 */
export async function resolveTaskFilter(
  ctx: OperationContext,
  filter: TaskFilterInput,
  pointer: string,
): Promise<TaskCondition> {
  checkFilterBounds(filter, pointer)
  return node(ctx, filter as Node, pointer)
}

/** 422 `rule_violated` at the first node of the filter past its depth, size or values bound. */
export function checkFilterBounds(filter: TaskFilterInput, pointer: string): void {
  const root = filter as Node
  let conditions = 0
  let values = 0
  const walk = (n: Node, at: string, depth: number) => {
    if (depth > FILTER_MAX_DEPTH) refuse(at, `Filters nest at most ${FILTER_MAX_DEPTH} levels deep`)
    for (const [key, value] of Object.entries(n)) {
      const here = `${at}/${key}`
      if (key === 'and' || key === 'or') {
        for (const [i, c] of (value as Node[]).entries()) walk(c, `${here}/${i}`, depth + 1)
      } else if (key === 'not') walk(value as Node, here, depth + 1)
      else if (typeof value === 'object' && value !== null) {
        for (const [op, v] of Object.entries(value)) {
          if (op === 'id') continue
          conditions++
          if (Array.isArray(v)) values += v.length
          if (conditions > FILTER_MAX_CONDITIONS)
            refuse(`${here}/${op}`, `A filter holds at most ${FILTER_MAX_CONDITIONS} comparisons`)
          if (values > FILTER_MAX_VALUES)
            refuse(`${here}/${op}`, `A filter lists at most ${FILTER_MAX_VALUES} values in all`)
        }
      } else if (++conditions > FILTER_MAX_CONDITIONS)
        refuse(here, `A filter holds at most ${FILTER_MAX_CONDITIONS} comparisons`)
    }
  }
  walk(root, pointer, 1)
}

function refuse(pointer: string, message: string): never {
  throw new ProblemError('rule_violated', `${message}.`, { errors: [{ pointer, message }] })
}

async function node(ctx: OperationContext, n: Node, at: string): Promise<TaskCondition> {
  const parts: TaskCondition[] = []
  for (const [key, value] of Object.entries(n)) {
    const here = `${at}/${key}`
    if (COMBINATORS.has(key)) {
      if (key === 'not') parts.push({ kind: 'not', of: await node(ctx, value as Node, here) })
      else {
        const of = []
        for (const [i, child] of (value as Node[]).entries()) of.push(await node(ctx, child, `${here}/${i}`))
        parts.push({ kind: key as 'and' | 'or', of })
      }
    } else parts.push(...(await leaf(ctx, key, value, here)))
  }
  return parts.length === 1 ? parts[0]! : { kind: 'and', of: parts }
}

async function leaf(
  ctx: OperationContext,
  key: string,
  value: unknown,
  at: string,
): Promise<TaskCondition[]> {
  if (key === 'search') {
    const terms = searchTokens(value as string, at)
    // Text without a single word matches nothing, as `q` does.
    return [{ kind: 'text', terms }]
  }
  if (key === 'blocked') return [value ? { kind: 'blocked' } : { kind: 'not', of: { kind: 'blocked' } }]
  const c = value as Comparator
  if (key === 'stateCategory') {
    return compare(c, (op, v) =>
      op === 'null' ? null : { kind: 'stateCategory', categories: [v].flat() as StateCategory[] },
    )
  }
  if (key === 'labelIds') return labels(c)
  if (key === 'field') return field(ctx, c, at)
  const column = key as TaskFilterColumn
  const timed = DATE_COLUMNS.has(key) || INSTANT_COLUMNS.has(key)
  const now = (v: ConditionValue) =>
    timed && typeof v === 'string' ? resolveTime(ctx.now, v, DATE_COLUMNS.has(key)) : v
  return compare(c, (op, v) => ({
    kind: 'column',
    column,
    op,
    value: Array.isArray(v) ? v.map(now) : v === null ? null : now(v),
  }))
}

/**
 * The comparator's operators as conditions that must all hold: `neq`, `nin` and `null: false` are
 * the negations of `eq`, `in` and `null: true`.
 */
function compare(
  c: Comparator,
  make: (op: ConditionOp, value: ConditionValue | ConditionValue[] | null) => TaskCondition | null,
): TaskCondition[] {
  const out: TaskCondition[] = []
  const positive: Record<string, ConditionOp> = {
    eq: 'eq',
    in: 'in',
    gt: 'gt',
    gte: 'gte',
    lt: 'lt',
    lte: 'lte',
  }
  for (const [op, v] of Object.entries(c)) {
    if (op === 'id') continue
    if (op === 'null') {
      const isNull = make('null', null)
      if (isNull) out.push(v ? isNull : { kind: 'not', of: isNull })
      continue
    }
    const base = op === 'neq' ? 'eq' : op === 'nin' ? 'in' : positive[op]!
    const made = make(base, v as ConditionValue | ConditionValue[])
    if (!made) continue
    out.push(op === 'neq' || op === 'nin' ? { kind: 'not', of: made } : made)
  }
  return out
}

function labels(c: Comparator): TaskCondition[] {
  const out: TaskCondition[] = []
  if (c.in) out.push({ kind: 'labels', op: 'any', ids: c.in as LabelId[] })
  if (c.nin) out.push({ kind: 'not', of: { kind: 'labels', op: 'any', ids: c.nin as LabelId[] } })
  if (c.all) out.push({ kind: 'labels', op: 'all', ids: c.all as LabelId[] })
  if (c.null !== undefined) {
    const none: TaskCondition = { kind: 'labels', op: 'none', ids: [] }
    out.push(c.null ? none : { kind: 'not', of: none })
  }
  return out
}

const ORDERED = new Set(['gt', 'gte', 'lt', 'lte'])

async function field(ctx: OperationContext, c: Comparator, at: string): Promise<TaskCondition[]> {
  const found: CustomField = await activeField(ctx, c.id as string, `${at}/id`)
  if (!found.recordKinds.includes('task')) {
    throw new ProblemError(
      'field_not_applicable',
      `The custom field “${found.name}” does not apply to tasks.`,
      {
        errors: [{ pointer: `${at}/id`, message: 'Not a field of tasks' }],
      },
    )
  }
  const ref = { id: found.id, type: found.type }
  const check = (op: string, v: ConditionValue): ConditionValue => {
    const here = `${at}/${op}`
    if (ORDERED.has(op) && found.type !== 'number' && found.type !== 'date')
      refuse(here, `\`${op}\` compares number and date fields only`)
    if (found.type === 'number') {
      if (typeof v !== 'number') refuse(here, 'Expected a number: the field is a number field')
      return v
    }
    if (typeof v !== 'string') refuse(here, `Expected text: the field is a ${found.type} field`)
    if (found.type !== 'date') return v
    if (RELATIVE.test(v)) return resolveTime(ctx.now, v, true)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v))
      refuse(here, 'Expected a day `YYYY-MM-DD` or a duration such as `P7D`')
    return v
  }
  const checked: Array<[string, unknown]> = Object.entries(c)
    .filter(([op]) => op !== 'id')
    .map(([op, v]) => [
      op,
      op === 'null' ? v : Array.isArray(v) ? v.map((x) => check(op, x)) : check(op, v as ConditionValue),
    ])
  return compare(Object.fromEntries(checked), (op, v) => ({ kind: 'field', field: ref, op, value: v }))
}

/**
 * A comparison's value at the time of the request: a duration (`P7D`, `-PT12H`) from `now`, as a day
 * for date columns and as an instant for the others; an absolute value as it is (instants in UTC).
 */
export function resolveTime(now: string, value: string, asDate: boolean): string {
  if (!RELATIVE.test(value)) return asDate ? value : new Date(value).toISOString()
  const sign = value.startsWith('-') ? -1 : 1
  const [, amount, unit] = /P(?:T)?(\d+)([DWMYH])$/.exec(value)!
  const n = sign * Number(amount)
  const at = new Date(now)
  if (unit === 'H') at.setUTCHours(at.getUTCHours() + n)
  else if (unit === 'D') at.setUTCDate(at.getUTCDate() + n)
  else if (unit === 'W') at.setUTCDate(at.getUTCDate() + 7 * n)
  else if (unit === 'M') at.setUTCMonth(at.getUTCMonth() + n)
  else at.setUTCFullYear(at.getUTCFullYear() + n)
  return asDate ? at.toISOString().slice(0, 10) : at.toISOString()
}

/** A condition that holds for these tasks only (storage reads them among the filter's). */
export function idsCondition(ids: readonly TaskId[]): TaskCondition {
  return { kind: 'ids', ids: [...ids] }
}
