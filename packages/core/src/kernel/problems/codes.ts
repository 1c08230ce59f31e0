/** A problem code's HTTP status and the title of its RFC 9457 document. */
export interface ProblemEntry {
  status: number
  title: string
}

export type ProblemTable = Readonly<Record<string, ProblemEntry>>

/**
 * The codes more than one resource group raises, and the transport's own. Every failure a client
 * can see carries a `code` in an RFC 9457 problem document; adapters map `status` to their
 * transport. A code only one group raises is that group's: it declares it in its `problems.ts`.
 */
export const COMMON_PROBLEMS = {
  bad_request: { status: 400, title: 'The request is malformed' },
  validation_failed: { status: 400, title: 'The request does not match the schema' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  invalid_identifier: { status: 400, title: 'An identifier is of the wrong type or malformed' },
  invalid_cursor: { status: 400, title: 'The pagination cursor is not valid for this request' },
  unauthenticated: { status: 401, title: 'A valid bearer access token is required' },
  insufficient_scope: { status: 403, title: 'The access token lacks a required scope' },
  capability_required: { status: 403, title: 'Your role or grants do not allow this action' },
  not_found: { status: 404, title: 'The resource does not exist or is not visible to you' },
  method_not_allowed: { status: 405, title: 'The method is not allowed on this resource' },
  not_acceptable: { status: 406, title: 'No acceptable representation is available' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  key_taken: { status: 409, title: 'The key or slug is already in use' },
  already_exists: { status: 409, title: 'The record exists already' },
  archived: { status: 409, title: 'The resource is archived' },
  cycle_completed: { status: 409, title: 'The cycle is completed' },
  field_not_applicable: {
    status: 422,
    title: 'The custom field does not apply to this record (its kind or team)',
  },
  label_group_conflict: { status: 409, title: 'Tasks carry more than one label of the group' },
  dependency_cycle: { status: 409, title: 'The dependency would close a cycle' },
  precondition_failed: { status: 412, title: 'The resource has changed since you read it' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  headers_too_large: { status: 431, title: 'The request line or headers are too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The idempotency key was used with another request' },
  rule_violated: {
    status: 422,
    title: "The request matches the schema but breaks a rule stated in the operation's description",
  },
  reference_not_found: {
    status: 422,
    title: 'A record the request refers to does not exist or is not usable here',
  },
  rate_limited: { status: 429, title: 'Too many requests' },
  ambiguous_name: { status: 422, title: 'The name matches more than one record' },
  unknown_name: { status: 422, title: 'No record you can see has this name' },
  internal_error: { status: 500, title: 'An unexpected error occurred' },
  service_unavailable: { status: 503, title: 'The database cannot be reached; retry shortly' },
} as const satisfies ProblemTable

/**
 * The codes the groups declare, each group's `problems.ts` adding its own by declaration merging
 * (as `Store` gains repositories), so `new ProblemError(code, …)` compiles for every declared code.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging
export interface GroupProblems {}

export type ProblemCode = keyof typeof COMMON_PROBLEMS | (keyof GroupProblems & string)

const table: Record<string, ProblemEntry> = { ...COMMON_PROBLEMS }

/** Every problem code: the kernel's and those of the groups loaded (the catalogue loads them all). */
export const PROBLEMS = table as Readonly<Record<ProblemCode, ProblemEntry>>

/**
 * Adds a group's problem codes to the one table `ProblemError` reads its status and title from,
 * refusing a code the kernel or another group already declares. The group lists the result as its
 * `problems`, so loading the catalogue loads every code.
 */
export function defineProblems<T extends ProblemTable>(group: string, problems: T): T {
  for (const [code, entry] of Object.entries(problems)) {
    if (code in table) throw new Error(`Resource group ${group}: the problem code ${code} is declared twice`)
    table[code] = entry
  }
  return problems
}
