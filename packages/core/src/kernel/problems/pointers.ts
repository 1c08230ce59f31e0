import { ProblemError } from '../problems.ts'

/**
 * The same problem, reported at an item of a list in the request body. By default its field
 * pointers move under `prefix` (`/body/stateId` → `/body/items/3/stateId`); with `replace`, every
 * pointer becomes `prefix` (the item is an id, not an object).
 */
export function atPointer(
  error: ProblemError,
  prefix: string,
  options: { replace?: boolean } = {},
): ProblemError {
  const errors = error.errors?.length
    ? error.errors.map((e) => ({
        ...e,
        pointer: options.replace ? prefix : `${prefix}${e.pointer.replace(/^\/body/, '')}`,
      }))
    : [{ pointer: prefix, message: error.message }]
  return new ProblemError(error.code, error.message, { errors, extensions: error.extensions })
}
