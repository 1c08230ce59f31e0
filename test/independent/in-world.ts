import { OPERATIONS } from '@workgraph/core'

/**
 * What a request of Portman's collection needs of the sample world beyond its defaults, applied to
 * its contract request and to each of its variations alike (docs/testing.md, "An independent
 * fuzzer"). Portman sends every path variable of one name with the same value; some operations need
 * another record of the world (the same knowledge as `IDS` in test/streams/every-write-emits.test.ts).
 */
type Json = Record<string, any>

interface InWorld {
  /** Path variables read from another variable of the world: `{ teamId: 'otherTeamId' }`. */
  path?: Record<string, string>
  /** Sent with another caller's token: the world's variable holding it. */
  token?: string
  /** Literal values of the request example replaced by a variable of the world. */
  body?: Record<string, string>
}

const IN_WORLD: Record<string, InWorld> = {}

const ROUTES = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op.id]))

/** The catalogue operation a Postman request stands for, by its method and path. */
export function operationOf(item: Json): string | undefined {
  const segments: string[] = item.request?.url?.path ?? []
  const path = `/${segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`
  return ROUTES.get(`${item.request?.method} ${path}`)
}

/** `folder` with every request that needs more of the world than its defaults given it. */
export function inWorld(folder: Json): Json {
  return {
    ...folder,
    item: (folder.item ?? []).map((item: Json) => {
      if (item.item) return inWorld(item)
      const needs = IN_WORLD[operationOf(item) ?? '']
      return needs ? withNeeds(item, needs) : item
    }),
  }
}

function withNeeds(item: Json, needs: InWorld): Json {
  const request = structuredClone(item.request)
  for (const variable of request.url?.variable ?? [])
    if (needs.path?.[variable.key]) variable.value = `{{${needs.path[variable.key]}}}`
  if (needs.token)
    request.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${needs.token}}}`, type: 'string' }] }
  if (needs.body && typeof request.body?.raw === 'string')
    for (const [literal, variable] of Object.entries(needs.body))
      request.body.raw = request.body.raw.replaceAll(
        JSON.stringify(literal),
        JSON.stringify(`{{${variable}}}`),
      )
  return { ...item, request }
}
