import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { type PrismAnswer, prismOperations, prismProxy } from '../support/prism.ts'
import { sized } from '../support/tier.ts'
import { schemaArbitraries } from './arbitraries.ts'
import { judge } from './oracle.ts'
import { type Json, newWorld, type Operation, operationsOf, type World } from './world.ts'

/**
 * The checks Schemathesis runs, by its names, over every operation of the served document and on
 * both databases, with every request and response passing through Stoplight Prism in proxy mode
 * (`test/support/prism.ts`): an OpenAPI implementation the project did not write validates each
 * request the suite means to be valid or invalid, and each response, beside the project's own ajv.
 * Nothing here names an operation: what runs is derived from the document the server serves.
 */
const RUNS = sized('CONTRACT_RUNS', { test: 1, deep: 10 })
const SEED = Number(process.env.CONTRACT_SEED ?? Math.floor(Math.random() * 2 ** 31))
const WORLD_SIZE = 40

type Server = Awaited<ReturnType<typeof startTestServer>>
type Draft = { params: Record<string, string>; query: [string, string][]; body: unknown }
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

// A schema-valid request may still meet the state of the world: a record of another parent (404),
// a conflict (409), a rule across fields, records or the clock that its operation documents (422,
// `rule_violated` among them), a precondition (412, 428), or a capability the owner does not hold
// (403). What it must never meet is a refusal of its shape (400, or a 422 of a shape code).
const STATE_DEPENDENT = new Set([403, 404, 409, 410, 412, 422, 428])
// What a request the schema forbids may meet: a refusal of its shape (400, 422), or an earlier
// refusal of the path (404), the capability (403), the size (413) or the media type (415).
const REJECTIONS = new Set([400, 403, 404, 413, 415, 422])
const SHAPE_REFUSALS = new Set(['validation_failed', 'bad_request', 'invalid_cursor', 'invalid_identifier'])

describeEachDatabase('contract checks on every operation (Schemathesis names, Prism in proxy mode)', (db) => {
  let server: Server
  let document: Json
  let operations: Operation[]
  let send: ReturnType<typeof prismProxy>
  const unexpected: unknown[] = []
  beforeAll(async () => {
    server = await startTestServer(db, {
      config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
      onError: (error) => unexpected.push(error),
    })
    document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Json
    operations = operationsOf(document).filter((op) => !streams(op))
    send = prismProxy(prismOperations(document), server.url)
  }, 120_000)
  afterAll(() => server.drop())

  it(`positive_data_acceptance, negative_data_rejection, status_code_conformance, content_type_conformance, response_schema_conformance, not_a_server_error and ignored_auth: ${RUNS} cases per operation (seed ${SEED})`, async () => {
    const failures = new Failures()
    const cursors = new Map<string, string[]>()
    let world: World | undefined
    let used = 0
    let requests = 0
    for (const [index, op] of operations.entries()) {
      if (!world || (used >= WORLD_SIZE && op.tag !== operations[index - 1]?.tag)) {
        world = await newWorld(server)
        used = 0
      }
      used++
      const schemas = schemaArbitraries(document, world.pool)
      const drafts = fc.sample(validDraft(op, schemas, cursors.get(op.id) ?? []), {
        numRuns: RUNS,
        seed: SEED + index,
      })
      for (const [n, draft] of drafts.entries()) {
        // positive_data_acceptance: a request the schema admits, from the owner with every scope.
        requests++
        const answer = await forward(send, op, draft, world.full)
        // Prism answers a request it finds invalid itself (422), without forwarding it.
        if (answer.input.length > 0) {
          failures.add(
            'positive_data_acceptance',
            op,
            `Prism finds the generated request invalid: ${diagnose(answer.input)}`,
            draft,
          )
          continue
        }
        conform(failures, server, op, draft, answer)
        if (
          answer.status === 400 ||
          (answer.status < 500 && !STATE_DEPENDENT.has(answer.status) && answer.status >= 300)
        )
          failures.add(
            'positive_data_acceptance',
            op,
            `${answer.status} ${codeOf(answer)} for a schema-valid request: ${detailOf(answer)}`,
            draft,
          )
        else if (
          answer.status === 422 &&
          (SHAPE_REFUSALS.has(codeOf(answer)) || !documents(op, 422, codeOf(answer)))
        )
          failures.add(
            'positive_data_acceptance',
            op,
            `422 ${codeOf(answer)} for a schema-valid request, not a rule the operation documents: ${detailOf(answer)}`,
            draft,
          )
        const next = (answer.body as Json | undefined)?.nextCursor
        if (answer.status < 300 && typeof next === 'string')
          cursors.set(op.id, [...(cursors.get(op.id) ?? []), next])

        // negative_data_rejection: the same request with one thing the schema forbids.
        const broken = breakDraft(op, draft, schemas, SEED + index * 31 + n)
        if (broken) {
          requests++
          const refused = await forward(send, op, broken.draft, world.full, { errors: false })
          conform(failures, server, op, broken.draft, refused)
          // Prism is the judge of "forbidden": a change it finds valid is not a negative case.
          if (refused.input.length > 0 && !REJECTIONS.has(refused.status))
            failures.add(
              'negative_data_rejection',
              op,
              `${refused.status} for ${broken.what}; Prism: ${diagnose(refused.input)}`,
              broken.draft,
            )
        }
      }

      const draft = drafts[0]!
      // negative_data_rejection of an empty query value (`?subjectId=`), on one query parameter of
      // every operation that has any: refused with a 400 naming it, never read as the parameter's
      // absence. The server is the judge here, not Prism: Prism reads an empty value as absent.
      const queryNames = ((op.spec.parameters ?? []) as Json[])
        .filter((p) => p.in === 'query')
        .map((p) => p.name as string)
      if (queryNames.length > 0) {
        const name = queryNames[(SEED + index) % queryNames.length]!
        const empty: Draft = { ...draft, query: [...draft.query.filter(([k]) => k !== name), [name, '']] }
        requests++
        const refused = await forward(send, op, empty, world.full, { errors: false })
        conform(failures, server, op, empty, refused)
        const pointer = ((refused.body as Json | undefined)?.errors as Json[] | undefined)?.[0]?.pointer
        if (refused.status !== 400 || pointer !== `/query/${name}`)
          failures.add(
            'negative_data_rejection',
            op,
            `${refused.status} ${codeOf(refused)} for an empty ${name} (pointer ${pointer})`,
            empty,
          )
      }

      // ignored_auth: without a token, and with a forged one, only a public operation answers.
      // No token, and a forged one: a JWT-shaped one and an opaque one in turn (both in the long run).
      const forged = ['e30.e30.e30', `wg_${'A'.repeat(40)}`]
      for (const token of [null, ...(RUNS > 1 ? forged : [forged[index % 2]!])]) {
        requests++
        const answer = await forward(send, op, draft, token, { errors: false, checkSecurity: false })
        conform(failures, server, op, draft, answer)
        const isPublic = Array.isArray(op.spec.security) && op.spec.security.length === 0
        if (!isPublic && answer.status !== 401)
          failures.add(
            'ignored_auth',
            op,
            `${answer.status} ${codeOf(answer)} with ${token ? 'a forged token' : 'no token'}`,
            draft,
          )
      }
    }
    console.log(
      `contract [${db.name}] seed ${SEED}: ${operations.length} operations, ${requests} requests, ${failures.size} distinct failures`,
    )
    expect(failures.list(), `seed ${SEED}`).toEqual([])
    expect(unexpected).toEqual([])
  }, 1_200_000)

  it(`stateful: create → get → update → get → delete → get on every resource family with create, get, update and delete (seed ${SEED})`, async () => {
    const failures = new Failures()
    const families = familiesOf(document, operationsOf(document))
    const skipped: string[] = []
    expect(families.length).toBeGreaterThan(0)
    let world: World | undefined
    for (const [index, family] of families.entries()) {
      if (!world || index % 10 === 0) world = await newWorld(server)
      const schemas = schemaArbitraries(document, world.pool)
      const parents = Object.fromEntries(
        (family.create.spec.parameters ?? [])
          .filter((p: Json) => p.in === 'path')
          .map((p: Json) => [p.name, world!.pool(p.schema['x-id-brand'])[0] ?? '']),
      )
      // A few generated bodies, until one is created: a valid body may still meet the world's state.
      let created: { id: string; answer: PrismAnswer } | undefined
      const tried: string[] = []
      // Bodies with the required properties alone first (fewer references to the world's records),
      // then whole ones.
      const bodies = fc.sample(bodyOf(family.create, schemas), {
        numRuns: Math.max(RUNS, 4) * 2,
        seed: SEED + index,
      })
      const required = new Set<string>(
        schemas.resolve(family.create.spec.requestBody?.content?.['application/json']?.schema ?? {})
          .required ?? [],
      )
      const minimal = bodies.map((b) =>
        b && typeof b === 'object' && !Array.isArray(b)
          ? Object.fromEntries(Object.entries(b).filter(([k]) => required.has(k)))
          : b,
      )
      for (const body of [...minimal.slice(0, bodies.length / 2), ...bodies.slice(bodies.length / 2)]) {
        const draft: Draft = { params: parents, query: [], body }
        const answer = await forward(send, family.create, draft, world.full)
        if (answer.forwarded) conform(failures, server, family.create, draft, answer)
        if (answer.status === 201 && typeof (answer.body as Json)?.id === 'string') {
          created = { id: (answer.body as Json).id, answer }
          break
        }
        tried.push(`${answer.status} ${codeOf(answer)}`)
        if (answer.status === 400 || answer.status >= 500 || answer.input.length > 0)
          failures.add(
            'stateful',
            family.create,
            `create: ${answer.status} ${codeOf(answer)} ${detailOf(answer)} ${diagnose(answer.input)}`,
            draft,
          )
      }
      if (!created) {
        // Every body met the world's state (a reference to a record of another team, say): nothing
        // to follow, and nothing wrong with the contract.
        skipped.push(`${family.create.id} (${[...new Set(tried)].join(', ')})`)
        continue
      }
      const item: Draft = { params: { ...parents, [family.idParam]: created.id }, query: [], body: undefined }
      const step = async (
        op: Operation,
        draft: Draft,
        expected: (status: number) => boolean,
        what: string,
      ) => {
        const answer = await forward(send, op, draft, world!.full)
        if (!answer.forwarded) {
          failures.add(
            'stateful',
            op,
            `${what}: Prism finds the generated request invalid: ${diagnose(answer.input)}`,
            draft,
          )
          return answer
        }
        conform(failures, server, op, draft, answer)
        if (!expected(answer.status))
          failures.add(
            'stateful',
            op,
            `${what}: ${answer.status} ${codeOf(answer)} ${detailOf(answer)}`,
            draft,
          )
        return answer
      }
      const read = await step(family.get, item, (s) => s === 200, 'get after create')
      if ((read.body as Json)?.id !== created.id)
        failures.add(
          'stateful',
          family.get,
          `get after create answers id ${(read.body as Json)?.id}, not ${created.id}`,
        )
      for (const patch of fc.sample(bodyOf(family.update, schemas), { numRuns: 3, seed: SEED + index })) {
        const updated = await step(
          family.update,
          { ...item, body: patch },
          (s) => s === 200 || (STATE_DEPENDENT.has(s) && s !== 404 && s !== 403),
          'update',
        )
        if (updated.status !== 200) continue
        const again = await step(family.get, item, (s) => s === 200, 'get after update')
        for (const [key, value] of Object.entries((patch as Json) ?? {}))
          if (
            value !== null &&
            typeof value !== 'object' &&
            key in (updated.body as Json) &&
            (again.body as Json)?.[key] !== (updated.body as Json)[key]
          )
            failures.add(
              'stateful',
              family.get,
              `get after update shows ${key} ${JSON.stringify((again.body as Json)?.[key])}, the update answered ${JSON.stringify((updated.body as Json)[key])}`,
            )
        break
      }
      await step(family.delete, item, (s) => s === 200 || s === 204, 'delete')
      // use_after_free: what was deleted is not found.
      const gone = await step(family.get, item, (s) => s === 404 || s === 410, 'get after delete')
      if (gone.status < 300)
        failures.add('use_after_free', family.get, `${gone.status} after ${family.delete.id}`)
    }
    console.log(
      `contract [${db.name}] seed ${SEED}: ${families.length} resource families: ${families.map((f) => f.create.id).join(', ')}; not created from generated bodies: ${skipped.join(', ') || 'none'}`,
    )
    // Most families must go the whole way, or the sequence checks nothing.
    expect(skipped.length, skipped.join(', ')).toBeLessThanOrEqual(families.length / 2)
    expect(failures.list(), `seed ${SEED}`).toEqual([])
    expect(unexpected).toEqual([])
  }, 600_000)
})

class Failures {
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
function documents(op: Operation, status: number, code: string): boolean {
  const listed = op.spec.responses?.[String(status)]?.description
  return typeof listed === 'string' && listed.includes(`\`${code}\``)
}

/** The response checks every answer gets, whatever was sent. */
function conform(failures: Failures, server: Server, op: Operation, draft: Draft, answer: PrismAnswer) {
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

function forward(
  send: ReturnType<typeof prismProxy>,
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

function pathOf(op: Operation, draft: Draft): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(draft.params[name] ?? ''))
}

/** A request the document admits: path and query parameters and a body generated from their schemas. */
function validDraft(op: Operation, schemas: ReturnType<typeof schemaArbitraries>, cursors: string[]) {
  const parameters: Json[] = op.spec.parameters ?? []
  const value = (p: Json) =>
    // Long polls would stall the run. A cursor is opaque and signed: its pattern admits strings the
    // server cannot have issued (and answers `invalid_cursor`, documented), so only real ones go.
    p.name === 'wait'
      ? fc.constant(0)
      : p.name === 'cursor'
        ? cursors.length > 0
          ? fc.constantFrom(...cursors)
          : fc.constant(undefined)
        : schemas.valid(p.schema)
  const path = fc.record(
    Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, value(p)])),
  )
  const queryParameters = parameters.filter((p) => p.in === 'query')
  const query = fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, value(p)])), {
    requiredKeys: queryParameters.filter((p) => p.required).map((p) => p.name as string) as never[],
  })
  // A read by POST takes its cursor in the body: the same holds there.
  const realCursor = (body: unknown) => {
    if (typeof body !== 'object' || body === null || !('cursor' in body)) return body
    const { cursor: _generated, ...rest } = body as Record<string, unknown>
    return cursors.length > 0 ? { ...rest, cursor: cursors[0] } : rest
  }
  return fc.record({ params: path, query, body: bodyOf(op, schemas).map(realCursor) }).map(
    ({ params, query, body }): Draft => ({
      params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
      query: Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
      body,
    }),
  )
}

function bodyOf(op: Operation, schemas: ReturnType<typeof schemaArbitraries>): fc.Arbitrary<unknown> {
  const content = op.spec.requestBody?.content ?? {}
  if (content['application/json']) return schemas.valid(content['application/json'].schema)
  if (content['application/octet-stream']) return fc.string({ minLength: 1, maxLength: 64 })
  return fc.constant(undefined)
}

/**
 * One thing the schema forbids, in a parameter or the body: a wrong type, a value past a bound or
 * outside an enum or a pattern, a required property left out, a property the schema does not know.
 */
function breakDraft(
  op: Operation,
  draft: Draft,
  schemas: ReturnType<typeof schemaArbitraries>,
  seed: number,
): { draft: Draft; what: string } | undefined {
  const choices: { what: string; apply: (d: Draft) => void }[] = []
  for (const p of (op.spec.parameters ?? []) as Json[]) {
    if (p.in !== 'query' && p.in !== 'path') continue
    const schema = schemas.resolve(p.schema)
    const set = (v: string) => (d: Draft) => {
      if (p.in === 'path') d.params[p.name] = v
      else d.query = [...d.query.filter(([k]) => k !== p.name), [p.name, v]]
    }
    for (const bad of forbiddenValues(schema))
      choices.push({ what: `${p.in} ${p.name}=${JSON.stringify(bad).slice(0, 60)}`, apply: set(String(bad)) })
  }
  const bodySchema = op.spec.requestBody?.content?.['application/json']?.schema
  if (bodySchema) {
    const schema = schemas.resolve(bodySchema)
    const body = (draft.body ?? {}) as Json
    if (schema.type === 'object' || schema.properties) {
      choices.push({
        what: 'a body that is an array',
        apply: (d) => {
          d.body = [d.body]
        },
      })
      if (schema.additionalProperties === false)
        choices.push({
          what: 'an unknown body property',
          apply: (d) => {
            d.body = { ...body, notInTheSchema: 1 }
          },
        })
      for (const name of (schema.required ?? []) as string[])
        choices.push({
          what: `body without required ${name}`,
          apply: (d) => {
            const { [name]: _dropped, ...rest } = body
            d.body = rest
          },
        })
      for (const [name, raw] of Object.entries<Json>(schema.properties ?? {}))
        for (const bad of forbiddenValues(schemas.resolve(raw)))
          choices.push({
            what: `body ${name}=${JSON.stringify(bad).slice(0, 60)}`,
            apply: (d) => {
              d.body = { ...body, [name]: bad }
            },
          })
    }
  }
  if (choices.length === 0) return undefined
  const choice = choices[Math.abs(seed) % choices.length]!
  const broken: Draft = {
    params: { ...draft.params },
    query: [...draft.query],
    body: structuredClone(draft.body),
  }
  choice.apply(broken)
  return { draft: broken, what: choice.what }
}

function forbiddenValues(schema: Json): unknown[] {
  if ('const' in schema || schema.anyOf || schema.oneOf) return []
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  const out: unknown[] = []
  if (Array.isArray(schema.enum)) out.push('not-in-the-enum')
  if (types.includes('integer') || types.includes('number')) {
    if (!types.includes('string')) out.push('not-a-number')
    if (typeof schema.minimum === 'number') out.push(schema.minimum - 1)
    if (typeof schema.maximum === 'number') out.push(schema.maximum + 1)
    if (types.includes('integer')) out.push(1.5)
  }
  if (types.includes('string')) {
    if (typeof schema.maxLength === 'number' && schema.maxLength < 100_000)
      out.push('x'.repeat(schema.maxLength + 1))
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      out.push('x'.repeat(schema.minLength - 1))
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test('!!')) out.push('!!')
    if (schema.format === 'date-time') out.push('not-a-date-time')
    if (schema.format === 'date') out.push('2024-13-45')
    if (
      !types.includes('integer') &&
      !types.includes('number') &&
      !types.includes('boolean') &&
      !types.includes('null')
    )
      out.push(12)
  }
  if (types.includes('boolean') && types.length === 1) out.push('not-a-boolean')
  if (types.includes('array') && types.length === 1) {
    out.push('not-an-array')
    if (typeof schema.maxItems === 'number' && schema.maxItems < 1000)
      out.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `x${i}`))
  }
  return out
}

interface Family {
  create: Operation
  get: Operation
  update: Operation
  delete: Operation
  idParam: string
}

/**
 * Resource families, from the document alone: a POST on a collection whose 201 answers an object
 * with an `id`, and GET, PATCH and DELETE on the collection's path plus one `{…Id}` segment, the GET
 * answering the same schema as the create.
 */
function familiesOf(document: Json, operations: Operation[]): Family[] {
  const at = new Map(operations.map((op) => [`${op.method} ${op.path}`, op]))
  const schemaName = (op: Operation, status: string) =>
    op.spec.responses?.[status]?.content?.['application/json']?.schema?.$ref as string | undefined
  const families: Family[] = []
  for (const create of operations) {
    if (create.method !== 'POST') continue
    const ref = schemaName(create, '201')
    if (!ref) continue
    const schema = document.components.schemas[ref.split('/').at(-1)!]
    if (!schema?.properties?.id) continue
    for (const path of at.keys()) {
      const match = path.match(/^GET (.+)\/\{(\w+Id)\}$/)
      if (!match || match[1] !== create.path) continue
      const get = at.get(path)!
      const update = at.get(`PATCH ${get.path}`)
      const remove = at.get(`DELETE ${get.path}`)
      if (update && remove && schemaName(get, '200') === ref)
        families.push({ create, get, update, delete: remove, idParam: match[2]! })
    }
  }
  return families
}

function streams(op: Operation): boolean {
  return Object.values<Json>(op.spec.responses).some((r) => r.content?.['text/event-stream'])
}

function codeOf(answer: PrismAnswer): string {
  return String((answer.body as Json | undefined)?.code ?? '')
}

function detailOf(answer: PrismAnswer): string {
  const body = answer.body as Json | undefined
  return (
    String(body?.detail ?? '').slice(0, 200) +
    (body?.errors ? ` ${JSON.stringify(body.errors).slice(0, 200)}` : '')
  )
}

function diagnose(diagnostics: PrismAnswer['input']): string {
  return diagnostics
    .slice(0, 3)
    .map((d) => `${d.path?.join('.') ?? ''} ${d.message}`)
    .join('; ')
}

function describe(op: Operation, draft: Draft): string {
  const text = JSON.stringify({ params: draft.params, query: draft.query, body: draft.body })
  return `${op.method} ${op.path} ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`
}
