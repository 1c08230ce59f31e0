import { type TProperties, Type } from '@sinclair/typebox'
import { type AnyOperation, isOrgScoped } from '../operation.ts'
import { COMMON_PROBLEM_EXTENSIONS, PROBLEM_EXTENSIONS } from '../problems/extensions.ts'
import { PROBLEMS, type ProblemCode } from '../problems.ts'

// The document's problems: which codes each operation can answer with, and the problem document
// itself as a union discriminated by `code`.

type Json = Record<string, unknown>

/** The response of one problem status: its codes with their titles, and the `Problem` schema. */
export function problemResponse(codes: ProblemCode[]): Json {
  return {
    description: codes.map((c) => `\`${c}\`: ${PROBLEMS[c].title}`).join('; '),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  }
}

/** Every problem an operation can answer with, grouped by status. */
export function problemStatuses(
  op: Pick<AnyOperation, 'method' | 'path' | 'scope' | 'errors'> &
    Partial<Pick<AnyOperation, 'capability' | 'body' | 'precondition' | 'reads' | 'writes'>>,
): Map<string, ProblemCode[]> {
  const codes = new Set<ProblemCode>([
    // A request the HTTP layer cannot even route (a malformed percent-escape in its path).
    'bad_request',
    'validation_failed',
    'invalid_identifier',
    'not_acceptable',
    'rate_limited',
    'internal_error',
    'service_unavailable',
    ...op.errors,
  ])
  const add = (...list: ProblemCode[]) => {
    for (const c of list) codes.add(c)
  }
  // A token that is sent is always verified, even where none is needed.
  add('unauthenticated')
  if (op.scope) add('insufficient_scope')
  if (op.capability) codes.add('capability_required')
  // Every operation with a precondition read honours If-Match.
  if (op.precondition) codes.add('precondition_failed')
  if (isOrgScoped(op)) codes.add('not_found')
  add('payload_too_large', 'headers_too_large')
  if (op.body) add('invalid_json', 'unsupported_media_type')
  // A unique key taken by a concurrent request surfaces as a conflict on any write.
  const write = op.method !== 'GET' && op.reads !== true
  if (write) add('conflict')
  if (write && op.method === 'POST' && op.scope) codes.add('idempotency_key_reused')
  if (write && isOrgScoped(op)) codes.add('archived')
  const byStatus = new Map<string, ProblemCode[]>()
  for (const code of [...codes].sort()) {
    const status = String(PROBLEMS[code].status)
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return new Map([...byStatus].sort(([a], [b]) => Number(a) - Number(b)))
}

/** `capability_required` → `ProblemCapabilityRequired`: the component of a code's problem variant. */
const variantName = (code: string) =>
  `Problem${code.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`

/**
 * The problem document as a union discriminated by `code`: one variant per code that carries members
 * of its own (kernel/problems/extensions.ts), and one for every other code. Clients branch on `code`.
 */
export function problemSchemas(): Record<string, Json> {
  const base = (code: Json, extra: TProperties = {}) => {
    const properties = plainProperties({ ...COMMON_PROBLEM_EXTENSIONS, ...extra })
    return {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'code', ...properties.required],
      properties: {
        type: {
          type: 'string',
          format: 'uri',
          description: '`{server}/problems/{code with hyphens}`: a page on the server about the code.',
        },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code,
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['pointer', 'message'],
            properties: {
              pointer: { type: 'string', description: 'JSON Pointer into the request.' },
              message: { type: 'string' },
            },
          },
        },
        ...properties.properties,
      },
    }
  }
  // The kernel's codes and the groups' in one order that does not depend on which group loads first.
  const codes = (Object.keys(PROBLEMS) as ProblemCode[]).sort()
  const typed = codes.filter((c) => PROBLEM_EXTENSIONS[c])
  const others = codes.filter((c) => !PROBLEM_EXTENSIONS[c])
  const schemas: Record<string, Json> = {}
  const mapping: Record<string, string> = {}
  for (const code of typed) {
    schemas[variantName(code)] = {
      ...base({ type: 'string', const: code }, PROBLEM_EXTENSIONS[code]),
      description: `A \`${code}\` problem: ${PROBLEMS[code].title}.`,
    }
    mapping[code] = `#/components/schemas/${variantName(code)}`
  }
  schemas.ProblemOther = {
    ...base({ type: 'string', enum: others }),
    description: 'A problem of a code that carries no members of its own.',
  }
  for (const code of others) mapping[code] = '#/components/schemas/ProblemOther'
  schemas.Problem = {
    type: 'object',
    description: 'An RFC 9457 problem document. Branch on `code`; each code’s own members are typed.',
    oneOf: [...typed.map((c) => ({ $ref: mapping[c] })), { $ref: '#/components/schemas/ProblemOther' }],
    discriminator: { propertyName: 'code', mapping },
    'x-problem-codes': Object.fromEntries(codes.map((code) => [code, PROBLEMS[code]])),
  }
  return schemas
}

/** TypeBox properties as plain JSON Schema, with the names of the required ones. */
function plainProperties(properties: TProperties): { properties: Json; required: string[] } {
  const object = JSON.parse(JSON.stringify(Type.Object(properties))) as Json
  return {
    properties: object.properties as Json,
    required: (object.required as string[] | undefined) ?? [],
  }
}
