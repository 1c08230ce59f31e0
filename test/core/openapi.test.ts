import { generateOpenApi, OPERATIONS, PROBLEMS, TAGS } from '@workgraph/core'
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
  for (const op of OPERATIONS) {
    const entry = document.paths[op.path][op.method.toLowerCase()]
    expect(entry.operationId).toBe(op.id)
    expect(entry.summary).toBeTruthy()
    expect(entry.responses[String(op.status)]).toBeDefined()
    for (const name of op.path.matchAll(/\{(\w+)\}/g)) {
      expect(entry.parameters.some((p: any) => p.in === 'path' && p.name === name[1])).toBe(true)
    }
    if (op.scope) expect(entry.security).toEqual([{ bearerAuth: [op.scope] }])
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
