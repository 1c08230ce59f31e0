import fc from 'fast-check'
import type { schemaArbitraries } from '../../fuzz/arbitraries.ts'
import type { Json, Operation } from '../../fuzz/world.ts'

/** One request of the contract checks: path values, query pairs in order, and a body. */
export type Draft = { params: Record<string, string>; query: [string, string][]; body: unknown }
type Schemas = ReturnType<typeof schemaArbitraries>

export function pathOf(op: Operation, draft: Draft): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(draft.params[name] ?? ''))
}

/** A request the document admits: path and query parameters and a body generated from their schemas. */
export function validDraft(op: Operation, schemas: Schemas, cursors: string[]): fc.Arbitrary<Draft> {
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

export function bodyOf(op: Operation, schemas: Schemas): fc.Arbitrary<unknown> {
  const content = op.spec.requestBody?.content ?? {}
  if (content['application/json']) return schemas.valid(content['application/json'].schema)
  if (content['application/octet-stream']) return fc.string({ minLength: 1, maxLength: 64 })
  return fc.constant(undefined)
}

/**
 * One thing the schema forbids, in a parameter or the body: a wrong type, a value past a bound or
 * outside an enum or a pattern, a required property left out, a property the schema does not know.
 */
export function breakDraft(
  op: Operation,
  draft: Draft,
  schemas: Schemas,
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
