import { generateOpenApi, isApiOperation, OPERATIONS, PROBLEMS, TAGS } from '@workgraph/core'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect, it } from 'vitest'

const document = generateOpenApi(OPERATIONS, {
  serverUrl: 'https://workgraph.example',
  version: '0.1.0',
  tags: TAGS,
}) as any

it('is a pure function of the catalogue (snapshot)', () => {
  expect(
    generateOpenApi(OPERATIONS, { serverUrl: 'https://workgraph.example', version: '0.1.0', tags: TAGS }),
  ).toEqual(document)
  expect(document).toMatchSnapshot()
})

it('describes every operation with its scope, parameters, body, responses and problems', () => {
  for (const op of OPERATIONS.filter(isApiOperation)) {
    const entry = document.paths[op.path][op.method.toLowerCase()]
    expect(entry.operationId).toBe(op.id)
    expect(entry.summary).toBeTruthy()
    expect(entry.responses[String(op.status)]).toBeDefined()
    for (const name of op.path.matchAll(/\{(\w+)\}/g)) {
      expect(entry.parameters.some((p: any) => p.in === 'path' && p.name === name[1])).toBe(true)
    }
    if (op.scope) expect(entry.security).toEqual([{ bearerAuth: [op.scope] }, { oauth2: [op.scope] }])
    else expect(entry.security).toEqual([])
    if (op.body) expect(entry.requestBody.content['application/json'].schema).toBeDefined()
    for (const code of op.errors)
      expect(entry.responses[String(PROBLEMS[code].status)]?.description).toContain(code)
  }
})

it('resolves every $ref to a component schema', () => {
  const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
    (m) => m[1]!,
  )
  for (const name of new Set(refs)) expect(document.components.schemas[name], name).toBeDefined()
})

it('shows a request example for every JSON body and a response example for every JSON answer', () => {
  const missing = OPERATIONS.flatMap((op) => [
    ...(op.body && op.examples?.request === undefined ? [`${op.id} request`] : []),
    ...(op.response && !op.file && op.examples?.response === undefined ? [`${op.id} response`] : []),
  ])
  expect(missing, 'add them to the operation (test/support/example-world.ts says which ids to use)').toEqual(
    [],
  )
})

it('shows only request and response examples that validate against the published schemas', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
  ajv.addSchema({ $id: 'openapi', components: document.components })
  // One compiled validator per distinct schema: the StreamEvent union is costly to compile.
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
  const check = (schema: unknown, example: unknown) => {
    const key = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')
    if (!compiled.has(key)) compiled.set(key, ajv.compile(JSON.parse(key)))
    const validate = compiled.get(key)!
    return validate(example) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
  let checked = 0
  for (const op of OPERATIONS.filter(isApiOperation)) {
    const entry = document.paths[op.path][op.method.toLowerCase()]
    const media = {
      request: entry.requestBody?.content['application/json'],
      response: entry.responses[String(op.status)].content?.[op.file?.mediaType ?? 'application/json'],
    }
    for (const which of ['request', 'response'] as const) {
      const example = op.examples?.[which]
      if (example === undefined) continue
      expect(media[which]?.example, `${op.id}: the ${which} example is in the document`).toEqual(example)
      expect(check(media[which].schema, example), `${op.id} ${which} example`).toEqual([])
      checked++
    }
  }
  expect(checked).toBeGreaterThan(0)
  // The check can fail: a project naming a malformed team id is refused. (A project without teams
  // is valid: a reader who sees it only through a grant on it sees none of its teams.)
  const get =
    document.paths['/v1/orgs/{orgId}/projects/{projectId}'].get.responses['200'].content['application/json']
  expect(check(get.schema, { ...get.example, teamIds: ['tsk_1'] })).not.toEqual([])
  // Ajv compiles a validator for each of hundreds of schemas: on two shared cores that takes a while.
}, 180_000)
