/**
 * The idiom rules of docs/api-conventions.md ("One idiom per act"), as a Redocly plugin
 * (redocly.yaml `plugins:`) and as plain functions over an OpenAPI document, so that
 * test/core/idiom-lint.test.ts runs the very same checks over `generateOpenApi(OPERATIONS)`.
 *
 * Each rule takes the document and answers its problems: `{ operationId, pointer, message }`, where
 * `pointer` is the path of keys to the offending node.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']

/** Every operation of the document with its path and method. */
export function operationsOf(document) {
  const found = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method]
      if (operation?.operationId) found.push({ path, method, operation })
    }
  }
  return found
}

/** Follows a local `$ref` (`#/components/...`) until a node without one. */
function resolve(document, node) {
  let current = node
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
    const keys = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
    current = keys.reduce((at, key) => at?.[key], document)
  }
  return current
}

/** `customFields` is the path segment `custom-fields`. */
export const kebab = (word) => word.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)

const problem = (path, method, operationId, message, key = 'operationId') => ({
  operationId,
  pointer: ['paths', path, method, key],
  message,
})

/**
 * `operation-id-noun-in-path`: every dot segment of an operationId but the last (the act) is a
 * segment of its path, in kebab case and in order. `customFields.options.list` at
 * `/custom-fields/{fieldId}/options`, `me.consents.list` at `/v1/me/consents`, `hub.inbox.counts`
 * at `/v1/hub/inbox/counts`.
 */
export function operationIdNounInPath(document) {
  const problems = []
  for (const { path, method, operation } of operationsOf(document)) {
    const id = operation.operationId
    const segments = path.split('/').filter((segment) => segment && !segment.startsWith('{'))
    const nouns = id.split('.').slice(0, -1)
    let from = 0
    for (const noun of nouns) {
      const at = segments.indexOf(kebab(noun), from)
      if (at < 0) {
        problems.push(
          problem(
            path,
            method,
            id,
            `${id}: its noun "${noun}" is not a segment of ${path}${from > 0 ? ` after "${segments[from - 1]}"` : ''}: name the operation after its path, or the path after the operation (\`${kebab(noun)}\`).`,
          ),
        )
        break
      }
      from = at + 1
    }
  }
  return problems
}

/** The names of an operation's query parameters, `$ref`s followed. */
function queryNames(document, operation) {
  return new Set(
    (operation.parameters ?? [])
      .map((parameter) => resolve(document, parameter))
      .filter((parameter) => parameter?.in === 'query')
      .map((parameter) => parameter.name),
  )
}

function jsonSchema(document, holder) {
  const resolved = resolve(document, holder)
  return resolve(document, resolved?.content?.['application/json']?.schema)
}

/**
 * `one-method-per-act`: an act has one method and one shape wherever it appears.
 * - `.add` is PUT on the item (the path ends with its id): adding twice changes nothing;
 * - `.remove` is DELETE;
 * - `.set` is PUT (a whole value replaced); no id ends `.put` (the method is not the act);
 * - `.move` is POST on `…/move` with a body of exactly `beforeId` and `afterId` (and a required `list`
 *   where an item stands in several lists: a task's board column, project and cycle); no id ends `.reorder`;
 * - `.history.list` is GET on `…/history`, pages with `cursor` and `limit` and answers `nextCursor`.
 */
export function oneMethodPerAct(document) {
  const problems = []
  for (const { path, method, operation } of operationsOf(document)) {
    const id = operation.operationId
    const refuse = (message) => problems.push(problem(path, method, id, `${id}: ${message}`))
    if (id.endsWith('.add')) {
      if (method !== 'put' || !path.endsWith('}'))
        refuse(`an add is PUT on the item it adds (\`…/{id}\`), not ${method.toUpperCase()} ${path}.`)
    } else if (id.endsWith('.remove')) {
      if (method !== 'delete') refuse(`a remove is DELETE, not ${method.toUpperCase()}.`)
    } else if (id.endsWith('.set')) {
      if (method !== 'put') refuse(`a set is PUT, not ${method.toUpperCase()}.`)
    } else if (id.endsWith('.put')) {
      refuse('the HTTP method is not the act: name it `.set` (PUT of a whole value) or `.update` (PATCH).')
    } else if (id.endsWith('.reorder')) {
      refuse('reordering is `.move`: POST `…/move` with `beforeId` or `afterId` (kernel/ordering.ts).')
    } else if (id.endsWith('.move')) {
      const body = jsonSchema(document, operation.requestBody)
      const all = Object.keys(body?.properties ?? {}).sort()
      // `list`, required, names which list when the item stands in several (MoveBody's third argument).
      const keys = body?.required?.includes('list') ? all.filter((k) => k !== 'list') : all
      if (method !== 'post' || !path.endsWith('/move'))
        refuse(`a move is POST on \`…/move\`, not ${method.toUpperCase()} ${path}.`)
      else if (keys.join(',') !== 'afterId,beforeId')
        refuse(`a move's body is exactly \`beforeId\` and \`afterId\` (MoveBody), not [${all.join(', ')}].`)
    } else if (id.endsWith('.history.list')) {
      const names = queryNames(document, operation)
      const answer = jsonSchema(document, operation.responses?.['200'])
      if (method !== 'get' || !path.endsWith('/history'))
        refuse(`a history is GET on \`…/history\`, not ${method.toUpperCase()} ${path}.`)
      else if (!names.has('cursor') || !names.has('limit'))
        refuse('a history pages: it takes the `cursor` and `limit` query parameters.')
      else if (!answer?.properties?.nextCursor) refuse('a history page answers `nextCursor`.')
    }
  }
  return problems
}

/**
 * `insights-tag-follows-path`: the Insights tag holds exactly the operations under an `insights`
 * path segment; a series read on one record (`…/burndown`, `…/progress/history`) sits with that record.
 */
export function insightsTagFollowsPath(document) {
  const problems = []
  for (const { path, method, operation } of operationsOf(document)) {
    const tagged = (operation.tags ?? []).includes('Insights')
    const under = path.split('/').includes('insights')
    if (tagged !== under)
      problems.push(
        problem(
          path,
          method,
          operation.operationId,
          tagged
            ? `${operation.operationId} is tagged Insights but ${path} has no \`insights\` segment: tag it with the record it reads.`
            : `${operation.operationId} is under \`insights\` but not tagged Insights.`,
          'tags',
        ),
      )
  }
  return problems
}

/**
 * `named-request-bodies`: every JSON request body is a `$ref` to a schema of `components.schemas`
 * named for what it does (`TaskCreate`, `TaskCommentCreate`; kernel/body-names.ts), never an inline
 * schema, so a generated client types what it sends by name and shares the resource's field types.
 */
export function namedRequestBodies(document) {
  const problems = []
  for (const { path, method, operation } of operationsOf(document)) {
    const content = resolve(document, operation.requestBody)?.content ?? {}
    for (const [mediaType, media] of Object.entries(content)) {
      if (!/^application\/(.+\+)?json$/.test(mediaType)) continue
      const ref = media?.schema?.$ref
      const name = typeof ref === 'string' ? ref.match(/^#\/components\/schemas\/([^/]+)$/)?.[1] : undefined
      const message = !name
        ? 'its JSON request body is an inline schema: give it a name in components.schemas (an `$id`, or the one derived from the operation id).'
        : /Body$/.test(name) || !/^[A-Z][A-Za-z0-9]*$/.test(name)
          ? `its request body's name ${name} is not \`<Resource><Act>\` in PascalCase (\`TaskCreate\`).`
          : !document.components?.schemas?.[name]
            ? `its request body refers to ${name}, which components.schemas does not hold.`
            : undefined
      if (message)
        problems.push(
          problem(path, method, operation.operationId, `${operation.operationId}: ${message}`, 'requestBody'),
        )
    }
  }
  return problems
}

/** The rules by the name redocly.yaml gives them (`idioms/<name>`). */
export const IDIOM_RULES = {
  'operation-id-noun-in-path': operationIdNounInPath,
  'one-method-per-act': oneMethodPerAct,
  'insights-tag-follows-path': insightsTagFollowsPath,
  'named-request-bodies': namedRequestBodies,
}

/** The rules' problems over a document. */
export function idiomProblems(document) {
  const out = {}
  for (const [name, rule] of Object.entries(IDIOM_RULES)) out[name] = rule(document)
  return out
}

/** A Redocly rule reporting one of the checks above over the whole (resolved) document. */
function redoclyRule(check) {
  return () => ({
    Root: {
      enter(root, ctx) {
        for (const found of check(root)) {
          ctx.report({
            message: found.message,
            location: ctx.location.source ? locationOf(ctx, found.pointer) : undefined,
          })
        }
      },
    },
  })
}

function locationOf(ctx, pointer) {
  let location = ctx.location
  for (const key of pointer) location = location.child(key)
  return location
}

export default function idiomsPlugin() {
  return {
    id: 'idioms',
    rules: {
      oas3: Object.fromEntries(
        Object.entries(IDIOM_RULES).map(([name, check]) => [name, redoclyRule(check)]),
      ),
    },
  }
}
