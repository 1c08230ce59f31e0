import { isProblem, ProblemError } from './problems.ts'

/**
 * Where a request names a record decides the answer when that record does not exist or is hidden
 * from the caller. In the path it is the resource the request is about: 404 `not_found`, the same
 * for missing and hidden. In the body it is a value of a field: 422 `reference_not_found` with a
 * pointer at the field, so the client knows what to fix (and still cannot tell missing from hidden).
 */
export function referenceNotFound(pointer: string, detail: string, message = detail): ProblemError {
  return new ProblemError('reference_not_found', detail, { errors: [{ pointer, message }] })
}

/**
 * Runs a look-up written for the path (404 when the record is missing or hidden) for a reference
 * named in the body at `pointer`: its 404 becomes the 422 above. Other problems pass unchanged.
 */
export async function inBody<T>(pointer: string, detail: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup()
  } catch (error) {
    if (isProblem(error) && error.code === 'not_found') throw referenceNotFound(pointer, detail)
    throw error
  }
}
