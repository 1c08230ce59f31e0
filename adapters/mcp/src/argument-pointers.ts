import type { FieldError } from '@workgraph/core'

const NAME_ERRORS = new Set(['unknown_name', 'ambiguous_name'])

/**
 * The pointers of a name that did not resolve, at the argument the caller sent rather than at the
 * REST request the tool made of it: `/body/steps/1/task` becomes `/arguments/steps/1/task` when the
 * tool passed `steps` through, and `/query/name` of `names.resolve` the argument that carried the
 * name, found by its value.
 */
export function argumentPointers(
  errors: FieldError[] | undefined,
  code: string,
  name: unknown,
  args: Record<string, unknown>,
): FieldError[] | undefined {
  if (!errors || !NAME_ERRORS.has(code) || typeof name !== 'string') return errors
  return errors.map((e) => {
    if (e.pointer.startsWith('/arguments')) return e
    const passed = /^\/(?:body|query)(\/.*)$/.exec(e.pointer)?.[1]
    const found = passed && valueAt(args, passed) === name ? passed : pathOf(args, name)
    return found === undefined ? e : { ...e, pointer: `/arguments${found}` }
  })
}

/** The argument named by a pointer: `/steps/1/task` in `{ steps: [...] }`. */
function valueAt(value: unknown, pointer: string): unknown {
  let at = value
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<string, unknown>)[key]
  }
  return at
}

/** Where `wanted` was sent: the first argument (or array item) whose value it is, as a pointer. */
function pathOf(value: unknown, wanted: string, path = ''): string | undefined {
  if (value === wanted) return path
  if (value === null || typeof value !== 'object') return undefined
  for (const [key, item] of Object.entries(value)) {
    const found = pathOf(item, wanted, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
    if (found !== undefined) return found
  }
  return undefined
}
