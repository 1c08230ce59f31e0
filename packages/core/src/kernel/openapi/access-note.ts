import type { AnyOperation } from '../operation.ts'
import { isOrgScoped } from '../operation.ts'

type AccessFields = Pick<AnyOperation, 'scope' | 'path' | 'method'> &
  Partial<Pick<AnyOperation, 'capability' | 'target' | 'requires'>>

/** Target kinds whose key does not read as the record's name. */
const TARGET_NOUNS: Readonly<Record<string, string>> = {
  org: 'workspace',
  update: 'status update',
  resource_link: 'link',
}

/** `time_entry` → `time entry`, `workflowState` → `workflow state`. */
function nounOf(type: string): string {
  return (
    TARGET_NOUNS[type] ??
    type
      .replace(/_/g, ' ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
  )
}

/**
 * What an operation's declared capability applies to, when its `target` depends on the path alone:
 * `the task`, `the workspace`. The target function is called with placeholder path parameters and a
 * body and query that record every read; a target that reads either (or fails without them) depends
 * on the request's content, and null says so: such an operation states its need in `requires`.
 */
export function staticTarget(op: Pick<AnyOperation, 'target'>): string | null {
  if (!op.target) return 'the workspace'
  let touched = false
  const recorder = new Proxy(
    {},
    {
      get: () => {
        touched = true
        return undefined
      },
    },
  )
  const params = new Proxy({}, { get: (_t, key) => `{${String(key)}}` })
  try {
    const target = op.target({ params, query: recorder, body: recorder } as never)
    if (touched || typeof target?.type !== 'string') return null
    // The kind itself from the path (`/records/{recordType}/{recordId}`): the record it names.
    if (target.type.startsWith('{')) return 'the record in the path'
    return `the ${nounOf(target.type)}`
  } catch {
    return null
  }
}

/**
 * The line that ends each operation's description in the reference: the token scope it needs and
 * who may call it. Generated from `scope`, `capability` and `target` (or `requires`, where the
 * capability is checked in code or applies to what the request names), so it cannot drift from the
 * checks the engine runs.
 */
export function accessNote(op: AccessFields): string {
  const who = whoMay(op)
  if (!op.scope) return `**Access:** no token needed${who ? `; ${who}` : ''}.`
  return `**Access:** token scope \`${op.scope}\`${who ? `; ${who}` : ''}.`
}

function whoMay(op: AccessFields): string | null {
  // `requires` may open on the capability itself: it reads as the generated line does.
  if (op.requires) return op.requires.startsWith('`') ? `capability ${op.requires}` : op.requires
  if (op.capability) {
    const target = staticTarget(op)
    return `capability \`${op.capability}\` on ${target ?? 'the record the request names'}`
  }
  if (!isOrgScoped(op)) {
    if (!op.scope) return null
    if (op.path.startsWith('/v1/me')) return 'the signed-in person, on their own records'
    if (op.path.startsWith('/v1/hub'))
      return 'the signed-in person, across their workspaces, for what they can view in each'
    return 'any signed-in person'
  }
  return op.method === 'GET'
    ? 'any member of the workspace, for what they can view'
    : 'any member of the workspace'
}
