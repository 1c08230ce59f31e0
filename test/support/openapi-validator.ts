import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

type Json = Record<string, any>

/**
 * Checks a response against what the OpenAPI document declares for its operation, status and
 * content type. An undeclared status or content type is a failure too.
 */
export function createResponseValidator(document: Json) {
  const ajv = createAjv(document)
  // One compiled validator per distinct schema: Ajv caches by schema object, and compiling a schema
  // that refers to the large Problem union takes about 150 ms, so every problem answer (all of them
  // `$ref: Problem`) and every repeated response shares one.
  const compiled = new Map<string, ValidateFunction>()
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    literal: template.split('/').filter((s) => !s.startsWith('{')).length,
  }))

  return function validate(
    method: string,
    path: string,
    status: number,
    contentType: string | null,
    body: unknown,
  ): void {
    const match = templates.filter((t) => t.regex.test(path)).sort((a, b) => b.literal - a.literal)[0]
    if (!match) {
      if (status >= 400)
        check({ $ref: 'openapi#/components/schemas/Problem' }, body, `${method} ${path} ${status}`)
      return
    }
    const operation = document.paths[match.template][method.toLowerCase()]
    if (!operation) {
      if (status === 405 || (method === 'OPTIONS' && status === 204)) return
      throw new Error(`${method} ${match.template} is not in the OpenAPI document`)
    }
    const response = operation.responses[String(status)]
    if (!response)
      throw new Error(
        `${operation.operationId} answered ${status}, which the OpenAPI document does not declare`,
      )
    if (status === 204 || status === 304) return
    const type = (contentType ?? '').split(';')[0]!.trim()
    // `*/*`: a download answers in its file's own type.
    const media = response.content?.[type] ?? response.content?.['*/*']
    if (!media)
      throw new Error(
        `${operation.operationId} ${status} answered ${type}, which the OpenAPI document does not declare`,
      )
    check(rewriteRefs(media.schema), body, `${operation.operationId} ${status}`)
    // A rule beyond the schema is part of the contract only where the operation documents it.
    const code = (body as { code?: unknown } | null)?.code
    if (code === 'rule_violated' && !String(response.description).includes('`rule_violated`'))
      throw new Error(`${operation.operationId} answered 422 rule_violated, which it does not document`)
  }

  function check(schema: Json, body: unknown, where: string): void {
    const key = JSON.stringify(schema)
    let validator = compiled.get(key)
    if (!validator) {
      validator = ajv.compile(schema)
      compiled.set(key, validator)
    }
    if (!validator(body))
      throw new Error(
        `${where}: the body does not match its schema: ${ajv.errorsText(validator.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      )
  }
}

/**
 * Checks a value against one named schema of the document (e.g. every event of a log against
 * `StreamEvent`); returns the errors, or null when it matches.
 */
export function createComponentValidator(document: Json, name: string) {
  const ajv = createAjv(document)
  const validator = ajv.compile({ $ref: `openapi#/components/schemas/${name}` })
  return (value: unknown): string | null => (validator(value) ? null : ajv.errorsText(validator.errors))
}

/**
 * An Ajv holding the document's components. Referenced schemas are compiled once each rather than
 * inlined at every use, and a `oneOf` with a discriminator (every event, every problem) checks the
 * one branch its tag names instead of trying them all: Ajv's `discriminator` option, which reads the
 * branches' `const` tags and refuses OpenAPI's `mapping`, so the mappings (the same facts) are left out.
 */
function createAjv(document: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, inlineRefs: false, discriminator: true })
  ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
  const components = JSON.parse(JSON.stringify(document.components), (key, value) =>
    key === 'discriminator' ? { propertyName: value.propertyName } : value,
  )
  ajv.addSchema({ $id: 'openapi', components })
  return ajv
}

function rewriteRefs(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'))
}
