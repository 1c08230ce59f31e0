import { judge } from '../../fuzz/oracle.ts'
import type { Json, Operation } from '../../fuzz/world.ts'
import type { startTestServer } from '../http.ts'
import type { PrismAnswer, prismProxy } from '../prism.ts'
import { type Draft, pathOf } from './drafts.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
type Send = ReturnType<typeof prismProxy>
type Check =
  | 'not_a_server_error'
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_schema_conformance'
  | 'positive_data_acceptance'
  | 'negative_data_rejection'
  | 'ignored_auth'
  | 'use_after_free'
  | 'stateful'

/** Distinct failures of a run: one per check, operation and kind of message, with its first request. */
export class Failures {
  private readonly seen = new Map<string, string>()
  get size() {
    return this.seen.size
  }
  add(check: Check, op: Operation, message: string, draft?: Draft) {
    const text = `${message.slice(0, 400)}${draft ? `\n    ${describe(op, draft)}` : ''}`
    const key = `${check} ${op.id} ${message.split(':')[0]}`
    if (!this.seen.has(key)) this.seen.set(key, `${check} ${op.id}: ${text}`)
  }
  list() {
    return [...this.seen.values()]
  }
}

/** Whether the operation lists `code` among the problems it answers with `status`. */
export function documents(op: Operation, status: number, code: string): boolean {
  const listed = op.spec.responses?.[String(status)]?.description
  return typeof listed === 'string' && listed.includes(`\`${code}\``)
}

/** The response checks every answer gets, whatever was sent. */
export function conform(
  failures: Failures,
  server: Server,
  op: Operation,
  draft: Draft,
  answer: PrismAnswer,
) {
  const { status } = answer
  const contentType = answer.headers['content-type'] ?? ''
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '')
  if (status >= 500) failures.add('not_a_server_error', op, `${status}: ${text.slice(0, 200)}`, draft)
  const responses: Json = op.spec.responses
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
  if (!declared) {
    failures.add(
      'status_code_conformance',
      op,
      `${status} is not documented (${Object.keys(responses).join(', ')})`,
      draft,
    )
    return
  }
  const media = contentType.split(';')[0]!.trim()
  const types = Object.keys(declared.content ?? {})
  if (types.length > 0 && !types.includes(media) && !types.includes('*/*'))
    failures.add(
      'content_type_conformance',
      op,
      `${status} answered ${media || 'no content type'}, documented ${types.join(', ')}`,
      draft,
    )
  if (types.length === 0 && text.length > 0 && status !== 204 && media)
    failures.add(
      'content_type_conformance',
      op,
      `${status} answered ${media}, documented without a body`,
      draft,
    )
  if (answer.output.length > 0)
    failures.add('response_schema_conformance', op, `Prism: ${status} ${diagnose(answer.output)}`, draft)
  try {
    server.validate(op.method, pathOf(op, draft), status, contentType, answer.body ?? '')
  } catch (error) {
    failures.add('response_schema_conformance', op, `ajv: ${(error as Error).message.slice(0, 300)}`, draft)
  }
  const problem = judge({ status, contentType, text }, op.spec)
  if (problem && status < 500) failures.add('status_code_conformance', op, problem, draft)
}

/** Sends a draft through Prism with the given token (none for `null`). */
export function forward(
  send: Send,
  op: Operation,
  draft: Draft,
  token: string | null,
  override: { errors?: boolean; checkSecurity?: boolean } = {},
): Promise<PrismAnswer> {
  const octets =
    op.spec.requestBody?.content?.['application/octet-stream'] &&
    !op.spec.requestBody.content['application/json']
  const headers: Record<string, string> = {}
  if (token) headers.authorization = `Bearer ${token}`
  let body: unknown
  if (draft.body !== undefined) {
    headers['content-type'] = octets ? 'application/octet-stream' : 'application/json'
    body = octets ? String(draft.body) : draft.body
  }
  return send({ method: op.method, path: pathOf(op, draft), query: draft.query, headers, body }, override)
}

/**
 * negative_data_rejection of an empty query value (`?subjectId=`), on one query parameter of an
 * operation that has any: refused with a 400 naming it, never read as the parameter's absence. The
 * server is the judge here, not Prism: Prism reads an empty value as absent. Answers whether a
 * request was sent.
 */
export async function checkEmptyQueryValue(
  failures: Failures,
  server: Server,
  send: Send,
  op: Operation,
  draft: Draft,
  token: string,
  pick: number,
): Promise<boolean> {
  const queryNames = ((op.spec.parameters ?? []) as Json[])
    .filter((p) => p.in === 'query')
    .map((p) => p.name as string)
  if (queryNames.length === 0) return false
  const name = queryNames[pick % queryNames.length]!
  const empty: Draft = { ...draft, query: [...draft.query.filter(([k]) => k !== name), [name, '']] }
  const refused = await forward(send, op, empty, token, { errors: false })
  conform(failures, server, op, empty, refused)
  const pointer = ((refused.body as Json | undefined)?.errors as Json[] | undefined)?.[0]?.pointer
  if (refused.status !== 400 || pointer !== `/query/${name}`)
    failures.add(
      'negative_data_rejection',
      op,
      `${refused.status} ${codeOf(refused)} for an empty ${name} (pointer ${pointer})`,
      empty,
    )
  return true
}

export function codeOf(answer: PrismAnswer): string {
  return String((answer.body as Json | undefined)?.code ?? '')
}

export function detailOf(answer: PrismAnswer): string {
  const body = answer.body as Json | undefined
  return (
    String(body?.detail ?? '').slice(0, 200) +
    (body?.errors ? ` ${JSON.stringify(body.errors).slice(0, 200)}` : '')
  )
}

export function diagnose(diagnostics: PrismAnswer['input']): string {
  return diagnostics
    .slice(0, 3)
    .map((d) => `${d.path?.join('.') ?? ''} ${d.message}`)
    .join('; ')
}

function describe(op: Operation, draft: Draft): string {
  const text = JSON.stringify({ params: draft.params, query: draft.query, body: draft.body })
  return `${op.method} ${op.path} ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`
}
