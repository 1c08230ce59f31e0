/**
 * The one catalogue of problem codes. Every failure a client can see carries one of these
 * `code`s in an RFC 9457 problem document; adapters map `status` to their transport.
 */
export const PROBLEMS = {
  bad_request: { status: 400, title: 'The request is malformed' },
  validation_failed: { status: 400, title: 'The request does not match the schema' },
  invalid_json: { status: 400, title: 'The request body is not valid JSON' },
  invalid_identifier: { status: 400, title: 'An identifier is of the wrong type or malformed' },
  invalid_cursor: { status: 400, title: 'The pagination cursor is not valid for this request' },
  unauthenticated: { status: 401, title: 'A valid bearer access token is required' },
  insufficient_scope: { status: 403, title: 'The access token lacks a required scope' },
  capability_required: { status: 403, title: 'Your role or grants do not allow this action' },
  first_party_only: { status: 403, title: "Only the service's own apps may manage the account" },
  not_found: { status: 404, title: 'The resource does not exist or is not visible to you' },
  method_not_allowed: { status: 405, title: 'The method is not allowed on this resource' },
  not_acceptable: { status: 406, title: 'No acceptable representation is available' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  key_taken: { status: 409, title: 'The key or slug is already in use' },
  state_in_use: { status: 409, title: 'The workflow state still holds tasks' },
  last_owner: { status: 409, title: 'The workspace keeps at least one active owner' },
  already_exists: { status: 409, title: 'The record exists already' },
  invitation_invalid: { status: 410, title: 'The invitation is used, revoked or expired' },
  cursor_expired: { status: 410, title: 'The stream cursor is older than the retained events' },
  invitation_email_mismatch: { status: 403, title: 'The invitation was sent to another email address' },
  approval_closed: { status: 409, title: 'The approval request is no longer pending' },
  session_closed: { status: 409, title: 'The agent session has ended' },
  agent_inactive: { status: 409, title: 'The agent is deactivated' },
  last_state: { status: 409, title: 'A team keeps at least one active workflow state' },
  archived: { status: 409, title: 'The resource is archived' },
  document_locked: { status: 409, title: 'The document is locked against edits' },
  cycle_overlap: { status: 409, title: "The cycle's dates overlap another cycle of the team" },
  cycle_completed: { status: 409, title: 'The cycle is completed' },
  not_in_triage: { status: 409, title: 'The task is not in triage' },
  triage_disabled: { status: 409, title: 'The team does not take requests into triage' },
  label_name_taken: { status: 409, title: 'Another label in the same scope has this name' },
  custom_field_name_taken: { status: 409, title: 'Another active custom field has this name' },
  field_not_applicable: {
    status: 422,
    title: 'The custom field does not apply to this record (its kind or team)',
  },
  label_group_conflict: { status: 409, title: 'Tasks carry more than one label of the group' },
  comment_deleted: { status: 409, title: 'The comment is deleted' },
  comment_not_root: { status: 422, title: 'The comment is a reply, not the root of its thread' },
  dependency_cycle: { status: 409, title: 'The dependency would close a cycle' },
  subtask_cycle: { status: 409, title: 'A task cannot become its own ancestor' },
  subtask_depth: { status: 409, title: 'Subtasks nest at most five levels deep' },
  initiative_cycle: { status: 409, title: 'An initiative cannot become its own ancestor' },
  initiative_depth: { status: 409, title: 'Initiatives nest at most five levels deep' },
  update_already_requested: { status: 409, title: 'An update was already asked for on this record today' },
  no_update_owner: { status: 422, title: 'The record has no lead or owner to ask for an update' },
  metric_not_set: { status: 409, title: 'The initiative has no metric' },
  project_status_in_use: { status: 409, title: 'Projects are still in this project status' },
  last_project_status: {
    status: 409,
    title: 'An org keeps at least one active project status in each category',
  },
  has_children: { status: 409, title: 'The task has open subtasks; say what happens to them' },
  open_work: { status: 409, title: 'The project has open tasks; say what happens to them' },
  precondition_failed: { status: 412, title: 'The resource has changed since you read it' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  headers_too_large: { status: 431, title: 'The request line or headers are too large' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  idempotency_key_reused: { status: 422, title: 'The idempotency key was used with another request' },
  reference_not_found: {
    status: 422,
    title: 'A record the request refers to does not exist or is not usable here',
  },
  precondition_required: { status: 428, title: 'This request requires a precondition' },
  rate_limited: { status: 429, title: 'Too many requests' },
  ambiguous_name: { status: 422, title: 'The name matches more than one record' },
  unknown_name: { status: 422, title: 'No record you can see has this name' },
  connection_required: {
    status: 422,
    title: 'Reading this item needs your connection to the other tool, and you have none',
  },
  connection_inactive: { status: 409, title: 'The connection is not active: connect again' },
  authorization_failed: { status: 400, title: 'The authorization at the other tool failed or expired' },
  outbound_refused: { status: 422, title: 'The URL points at an address the server does not connect to' },
  external_item_not_found: {
    status: 422,
    title: 'The other tool has no item at this URL that your connection can read',
  },
  provider_unavailable: { status: 502, title: 'The other tool could not be reached or answered wrongly' },
  domain_not_allowed: {
    status: 422,
    title: 'The address is not on a verified domain of the workspace',
  },
  internal_error: { status: 500, title: 'An unexpected error occurred' },
  service_unavailable: { status: 503, title: 'The database cannot be reached; retry shortly' },
} as const satisfies Record<string, { status: number; title: string }>

export type ProblemCode = keyof typeof PROBLEMS

export interface FieldError {
  /** JSON Pointer (RFC 6901) into the request: `/body/title`, `/query/limit`, `/params/orgId`. */
  pointer: string
  message: string
}

export interface ProblemDocument {
  type: string
  title: string
  status: number
  detail: string
  code: ProblemCode
  errors?: FieldError[]
  [extension: string]: unknown
}

/** The one error class core throws for anything a client should see. */
export class ProblemError extends Error {
  readonly code: ProblemCode
  readonly status: number
  readonly errors: FieldError[] | undefined
  readonly extensions: Record<string, unknown>

  constructor(
    code: ProblemCode,
    detail: string,
    options: { errors?: FieldError[]; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail)
    this.name = 'ProblemError'
    this.code = code
    this.status = PROBLEMS[code].status
    this.errors = options.errors
    this.extensions = options.extensions ?? {}
  }

  /** The RFC 9457 document; `typeBase` is where the problem types are documented. */
  toDocument(typeBase = 'https://workgraph.dev/problems/'): ProblemDocument {
    return {
      type: `${typeBase}${this.code.replaceAll('_', '-')}`,
      title: PROBLEMS[this.code].title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extensions,
    }
  }
}

export function isProblem(error: unknown): error is ProblemError {
  return error instanceof ProblemError
}

/** Shorthand for the 404 that a missing record, another tenant's record and a hidden one share. */
export function notFound(what: string): ProblemError {
  return new ProblemError('not_found', `${what} was not found.`)
}
