import type { ProblemCode } from '../problems.ts'

/**
 * What a client should do about a problem, for the page its `type` URL opens (`/problems/{code}`).
 * Codes without an entry show their title and the operations that answer them.
 */
export const PROBLEM_ADVICE: Partial<Record<ProblemCode, string>> = {
  bad_request:
    'The request itself is malformed: a header (such as `If-Match` or `Idempotency-Key`) or the URL. `errors[].pointer` names the part.',
  validation_failed:
    'A field is missing, of the wrong type or out of range. Each entry of `errors` names one field with a JSON Pointer (`/body/title`, `/query/limit`) and says what is expected; fix those and send again.',
  invalid_json: 'The body is not valid JSON. Send `Content-Type: application/json` and a JSON object.',
  invalid_identifier:
    'An id has the wrong type or shape: ids are typed by prefix (`task_…`, `team_…`). `expectedType` names the type the field takes. A task key such as `ENG-42` is read at `GET /v1/orgs/{orgId}/tasks/by-key/{key}`.',
  invalid_cursor:
    'Pass `nextCursor` back unchanged, with the same filters and sort as the page it came from. Start again without `cursor` if the filters changed.',
  unauthenticated:
    'Send `Authorization: Bearer <access token>`. Tokens expire after an hour: get a new one with your refresh token. The `WWW-Authenticate` header points at the metadata that says where.',
  insufficient_scope:
    'The token was granted without the scope this operation needs (`requiredScope`). Ask for it in a new authorization.',
  capability_required:
    'Your role and grants do not allow this on this record (`capability` is what it needs, `held` what you have). An admin can grant it; `GET /v1/orgs/{orgId}/access/explain` says which grant decides.',
  not_found:
    'Nothing is there, or you may not see it: the API answers both alike so that it never reveals what you cannot see. Check the ids and the workspace in the path.',
  method_not_allowed: 'The `Allow` header lists the methods this path takes.',
  not_acceptable: 'Accept `application/json` (and `application/problem+json` for errors).',
  conflict: 'Another request changed the same record at the same moment. Read it again and retry.',
  precondition_failed:
    'The record changed since you read it: your `If-Match` ETag is stale. Read it again, reapply your change, and send the new ETag.',
  payload_too_large:
    'The body is over the limit (`maxBytes`). Send less, or split the work into several requests.',
  unsupported_media_type: 'Send the body as `Content-Type: application/json`.',
  idempotency_key_reused:
    'This `Idempotency-Key` was used in the last 24 hours with a different request. Use a new key for a new request.',
  rule_violated:
    "The request has the right shape, but breaks a rule no schema can state: between fields (a range that ends before it starts, two options that exclude each other), between records, or against the clock (a reminder in the past). The operation's description states the rule, and `errors[].pointer` names the field to change.",
  reference_not_found:
    'A record named in the body does not exist, is archived, or is not usable here (for example a state of another team). `errors[].pointer` names the field.',
  rate_limited:
    'Slow down: wait the seconds in `Retry-After`. `RateLimit` headers on every answer say how much is left.',
  dependency_cycle:
    'The link would make work wait on itself. The problem names the path of records you can see.',
  initiative_cycle:
    'The initiative would go under itself or one of its sub-initiatives; `path` lists them from it down to the parent you asked for. Pick a parent outside its subtree.',
  update_already_requested:
    'Someone asked for an update on this record today and none has been posted since; `requestedAt` says when. Wait for the update, or ask again tomorrow.',
  no_update_owner:
    'Only the lead of a project or the owner of a program or initiative is asked. Set one (`leadId` or `ownerId`) first.',
  metric_not_set: 'Define the metric with `initiatives.metric.set` before recording values.',
  initiative_depth:
    'Initiatives nest at most `limit` levels, counting those under the one you move. Nest it higher, or flatten its sub-initiatives first.',
  open_work:
    'The project still has open tasks (`openTasks`, by state category in `byCategory`, hidden ones counted). Send the status change again with `openTasks`: `keep` leaves them, `cancel` cancels each, `move` with `moveTasksTo` puts them in another project.',
  archived: 'Restore the record (its `…/restore` operation) before changing it.',
  document_locked:
    'Someone locked the document (`lockedById`, `lockedAt`). They, or someone with `manage`, unlock it with `documents.unlock`; then edit again.',
  ambiguous_name:
    'The name matches several records; `candidates` lists them. Use a more precise name or an id.',
  unknown_name: 'No record you can see has this name; `candidates` lists the closest matches.',
  internal_error:
    'Something failed on our side and the request changed nothing. Retry later; quote `requestId` when reporting it.',
  service_unavailable:
    'The database cannot be reached for a moment. Retry after `Retry-After` seconds; a POST retried with the same `Idempotency-Key` is never applied twice.',
}
