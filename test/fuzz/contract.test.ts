import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  checkEmptyQueryValue,
  codeOf,
  conform,
  detailOf,
  diagnose,
  documents,
  Failures,
  forward,
} from '../support/contract/checks.ts'
import { bodyOf, breakDraft, type Draft, validDraft } from '../support/contract/drafts.ts'
import { familiesOf, streams } from '../support/contract/families.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { type PrismAnswer, prismOperations, prismProxy } from '../support/prism.ts'
import { sized } from '../support/tier.ts'
import { schemaArbitraries } from './arbitraries.ts'
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
      // negative_data_rejection of an empty query value, on one query parameter (support/contract/checks.ts).
      if (await checkEmptyQueryValue(failures, server, send, op, draft, world.full, SEED + index)) requests++

      // ignored_auth: without a token, and with a forged one (JWT-shaped or opaque), only a public
      // operation answers. All three in the long run; at `pnpm test`'s size one per operation,
      // rotating with the seed, so every operation meets each of them over a few runs.
      const unauthenticated = [null, 'e30.e30.e30', `wg_${'A'.repeat(40)}`]
      for (const token of RUNS > 1 ? unauthenticated : [unauthenticated[(SEED + index) % 3]!]) {
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
