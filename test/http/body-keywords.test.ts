import { OPERATIONS } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exampleBody } from '../support/example-world.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { sampleWorld } from '../support/sample-world.ts'

type Json = Record<string, any>

/**
 * What the served document says of a nullable text field of a request body, the server checks: an
 * independent fuzzer (Portman, docs/testing.md) sent `name: ""` to `cycles.create`, whose document
 * says `minLength: 1`, and it was accepted (a bound a write adds to a resource's nullable field was
 * published and never checked).
 */
describeEachDatabase('bounds of nullable body fields', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  // Some hundred requests: minutes on a loaded machine.
  it('refuses a value past the minLength or maxLength the document states, at the field', {
    timeout: 300_000,
  }, async () => {
    const { ids, ws } = await sampleWorld(server)
    const document = (await server.request<Json>('GET', '/v1/openapi.json')).body
    const resolve = (schema: Json): Json =>
      schema?.$ref ? resolve(document.components.schemas[schema.$ref.split('/').at(-1)]) : schema
    const accepted: string[] = []
    const token = await server.engine.tokens.issueAccessToken({
      userId: ws.owner.user.id,
      scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
    })
    let cases = 0
    for (const op of OPERATIONS) {
      const json =
        document.paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content?.['application/json']
      const properties: Record<string, Json> = resolve(json?.schema ?? {})?.properties ?? {}
      for (const [field, raw] of Object.entries(properties)) {
        const schema = resolve(raw)
        const nullableText =
          Array.isArray(schema.type) && schema.type.includes('string') && schema.type.includes('null')
        if (!nullableText) continue
        const values: string[] = []
        if (schema.minLength >= 1) values.push('')
        if (typeof schema.maxLength === 'number') values.push('x'.repeat(schema.maxLength + 1))
        for (const value of values) {
          cases++
          const example = op.examples?.request !== undefined ? (exampleBody(op, ids) as Json) : {}
          // A path value the world has no record for is still well-formed: the body is read first.
          const parameters: Json[] = document.paths[op.path][op.method.toLowerCase()].parameters ?? []
          const path = op.path.replace(
            /\{(\w+)\}/g,
            (_m, name: string) => ids[name] ?? parameters.find((p) => p.name === name)?.schema?.examples?.[0],
          )
          const res = await server.request(op.method, path, {
            token,
            body: { ...example, [field]: value },
          })
          const pointers = (res.body?.errors ?? []).map((e: Json) => e.pointer)
          if (res.status !== 400 || !pointers.includes(`/body/${field}`))
            accepted.push(
              `${op.id} ${field} (${value.length} characters): ${res.status} ${JSON.stringify(pointers)}`,
            )
        }
      }
    }
    expect(cases).toBeGreaterThan(50)
    expect(accepted).toEqual([])
  })
})
