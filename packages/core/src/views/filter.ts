import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { compilePart, type PartValidator } from '../kernel/validation.ts'
import type { ViewFilter, ViewModel } from './schemas.ts'

/** The list operation a view of each model runs. */
export const LIST_OF: Record<ViewModel, string> = { tasks: 'tasks.list', projects: 'projects.list' }

const validators = new Map<string, PartValidator>()

function validatorFor(ctx: OperationContext, model: ViewModel): PartValidator {
  const known = validators.get(model)
  if (known) return known
  const query = ctx.operationOf(LIST_OF[model])?.query as TObject | undefined
  if (!query) throw new Error(`No list operation for views of ${model}`)
  // The list's own query schema, paging left out: a view stores what to show, not where a page starts.
  const schema: TSchema = Type.Omit(query, ['cursor', 'limit'], { additionalProperties: false })
  const validator = compilePart(schema, 'body', { coerce: false })
  validators.set(model, validator)
  return validator
}

/** Checks a view's filter against the query schema of the list it runs; problems point into `/body/filter`. */
export function checkFilter(ctx: OperationContext, model: ViewModel, filter: ViewFilter): ViewFilter {
  try {
    return validatorFor(ctx, model).parse(filter) as ViewFilter
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
