import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import type { OperationContext } from '../kernel/operation.ts'
import { compilePart, type PartValidator } from '../kernel/pipeline/validation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { checkFilterBounds } from '../tasks/filter/filter.ts'
import type { ViewFilter, ViewModel } from './schemas.ts'

/**
 * The operation a view of each model runs, and where its filter's schema is: a tasks view holds the
 * body of `tasks.query` (the query of `tasks.list` plus the composed `filter`), a projects view the
 * query of `projects.list`.
 */
export const LIST_OF: Record<ViewModel, string> = { tasks: 'tasks.query', projects: 'projects.list' }
const PART_OF: Record<ViewModel, 'query' | 'body'> = { tasks: 'body', projects: 'query' }

const validators = new Map<string, PartValidator>()

function validatorFor(ctx: OperationContext, model: ViewModel): PartValidator {
  const known = validators.get(model)
  if (known) return known
  const query = ctx.operationOf(LIST_OF[model])?.[PART_OF[model]] as TObject | undefined
  if (!query) throw new Error(`No list operation for views of ${model}`)
  // The list's own query schema, paging left out: a view stores what to show, not where a page starts.
  const schema: TSchema = Type.Omit(query, ['cursor', 'limit'], { additionalProperties: false })
  const validator = compilePart(schema, 'body', { coerce: false })
  validators.set(model, validator)
  return validator
}

/**
 * Checks a view's filter against the schema of the list it runs; problems point into `/body/filter`.
 * Automation rules store and check their conditions the same way, then run them with
 * `matchingTaskIds` (tasks/query.ts).
 */
export function checkFilter(ctx: OperationContext, model: ViewModel, filter: ViewFilter): ViewFilter {
  try {
    const checked = validatorFor(ctx, model).parse(filter) as ViewFilter
    // The composed filter's bounds hold when it is saved (the pointer gains `/filter` below); its
    // custom fields are looked up when it runs.
    if (model === 'tasks' && checked.filter) checkFilterBounds(checked.filter, '/body/filter')
    return checked
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error
    const errors = (error.errors ?? []).map((e) => ({
      ...e,
      pointer: e.pointer.replace(/^\/body/, '/body/filter'),
    }))
    throw new ProblemError(
      error.code,
      `The filter is not a query of \`${LIST_OF[model]}\`: ${errors[0]?.message ?? error.message}`,
      { errors, extensions: error.extensions },
    )
  }
}
