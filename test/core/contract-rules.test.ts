/**
 * The service spec's rules, checked on the whole document rather than operation by operation: one
 * unauthenticated operation under `/v1`; every list either pages (`cursor`, `limit`, `nextCursor`)
 * or states its bound (`maxItems`); every cursor and request header has the form the server accepts.
 */
import {
  CURSOR_PATTERN,
  ETAG_LIST_PATTERN,
  generateOpenApi,
  isApiOperation,
  OPERATIONS,
  TAGS,
} from '@workgraph/core'
import { expect, it } from 'vitest'

type Json = Record<string, any>
const document = generateOpenApi(OPERATIONS, {
  serverUrl: 'https://workgraph.example',
  version: '0.1.0',
  tags: TAGS,
}) as Json
const schemas: Record<string, Json> = document.components.schemas
const resolve = (schema: Json): Json =>
  typeof schema.$ref === 'string' ? resolve(schemas[schema.$ref.split('/').at(-1)!]!) : schema
const operations = Object.values<Json>(document.paths).flatMap((item) =>
  Object.entries<Json>(item).map(([method, spec]) => ({ method, spec })),
)

it('has GET /v1/config as its only unauthenticated operation, and keeps the browser landing outside /v1', () => {
  const open = operations
    .filter(({ spec }) => spec.security?.length === 0)
    .map(({ spec }) => spec.operationId)
  expect(open).toEqual(['config.get'])
  const tokenless = OPERATIONS.filter((op) => op.scope === null)
  expect(tokenless.map((op) => [op.id, op.path])).toEqual([
    ['config.get', '/v1/config'],
    ['connectors.callback', '/connectors/callback'],
  ])
  expect(OPERATIONS.filter((op) => !isApiOperation(op)).map((op) => op.id)).toEqual(['connectors.callback'])
  expect(Object.keys(document.paths).filter((path) => !path.startsWith('/v1/'))).toEqual([])
})

it('pages every list with cursor, limit and a nullable nextCursor, or states its bound as maxItems', () => {
  const unbounded: string[] = []
  let paged = 0
  let bounded = 0
  for (const { method, spec } of operations) {
    if (method !== 'get') continue
    const body = spec.responses['200']?.content?.['application/json']?.schema
    const shape = body && resolve(body)
    if (!shape?.properties?.data || resolve(shape.properties.data).type !== 'array') continue
    const names = new Set((spec.parameters ?? []).map((p: Json) => p.name))
    const next = shape.properties.nextCursor && resolve(shape.properties.nextCursor)
    if (names.has('cursor') && names.has('limit') && next) {
      // A log has no last page: the streams always answer where to continue.
      if (!spec.tags?.includes('Streams')) expect(next.type, spec.operationId).toContain('null')
      paged++
    } else if (typeof resolve(shape.properties.data).maxItems === 'number') bounded++
    else unbounded.push(spec.operationId)
  }
  expect(unbounded).toEqual([])
  expect(paged).toBeGreaterThan(100)
  expect(bounded).toBe(10)
})

it('gives every cursor the shape the server issues, and every limit an integer range', () => {
  let cursors = 0
  for (const { spec } of operations) {
    for (const p of spec.parameters ?? []) {
      const schema = resolve(p.schema)
      if (p.name === 'cursor') {
        expect(schema.pattern, spec.operationId).toBe(CURSOR_PATTERN)
        expect(schema.maxLength, spec.operationId).toBeGreaterThan(0)
        cursors++
      }
      if (p.name === 'limit') {
        expect(schema.type, spec.operationId).toBe('integer')
        expect(schema.minimum, spec.operationId).toBe(1)
        expect(schema.maximum, spec.operationId).toBeGreaterThan(1)
      }
    }
  }
  expect(cursors).toBeGreaterThan(100)
})

it('declares If-Match, If-None-Match and Idempotency-Key with the form the server checks', () => {
  const seen = new Set<string>()
  for (const { spec } of operations) {
    for (const p of spec.parameters ?? []) {
      if (p.in !== 'header') continue
      seen.add(p.name)
      if (p.name === 'If-Match' || p.name === 'If-None-Match')
        expect(p.schema.pattern, `${spec.operationId} ${p.name}`).toBe(ETAG_LIST_PATTERN)
      if (p.name === 'Idempotency-Key')
        expect(p.schema, spec.operationId).toMatchObject({ minLength: 1, maxLength: 255 })
    }
  }
  expect([...seen].sort()).toEqual(['Idempotency-Key', 'If-Match', 'If-None-Match', 'Last-Event-ID'])
})
