import { isId } from '../ids.ts'

/** Where to find the id a request should have sent, when what it sent is recognisably something else. */
export interface IdentifierHint {
  /** What the value looks like, in words: `a workspace slug`, `a task key`, `a team key`. */
  looksLike: string
  /** The read that answers the id, as `METHOD path`. */
  lookup: string
}

// The shapes of the names people use for records: `acme` (orgs.slug), `ENG-42` (tasks.key), `ENG` (teams.key).
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/
const TASK_KEY = /^[A-Za-z][A-Za-z0-9]{0,6}-[1-9][0-9]{0,9}$/
const TEAM_KEY = /^[A-Za-z][A-Za-z0-9]{0,6}$/

/**
 * The hint for a value sent where an id of `expected` belongs, or null. `input` is the rest of the
 * request's part (its `orgId`, when well formed, fills in the workspace of the path).
 */
export function identifierHint(
  expected: string,
  value: string,
  input: Record<string, unknown>,
): IdentifierHint | null {
  const org = isId('OrgId', input.orgId) ? input.orgId : '{orgId}'
  if (expected === 'TaskId' && TASK_KEY.test(value))
    return { looksLike: 'a task key', lookup: `GET /v1/orgs/${org}/tasks/by-key/${value.toUpperCase()}` }
  if (expected === 'TeamId' && TEAM_KEY.test(value))
    return { looksLike: 'a team key', lookup: `GET /v1/orgs/${org}/teams` }
  if (expected === 'OrgId' && SLUG.test(value))
    return { looksLike: 'a workspace slug', lookup: 'GET /v1/orgs' }
  return null
}

/** The sentence a problem's `detail` adds for a hint. */
export function hintInWords(value: string, hint: IdentifierHint): string {
  return `\`${value}\` looks like ${hint.looksLike}: find the \`id\` with \`${hint.lookup}\` and send that.`
}
