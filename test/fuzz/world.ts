import { ID_PREFIXES } from '@workgraph/core'
import { newPerson } from '../support/fixtures.ts'
import type { startTestServer } from '../support/http.ts'
import { sampleWorld } from '../support/sample-world.ts'

export type Json = Record<string, any>
export type Operation = { id: string; method: string; path: string; tag: string; spec: Json }

const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const BRAND_OF = Object.fromEntries(Object.entries(ID_PREFIXES).map(([brand, prefix]) => [prefix, brand]))

/** Every operation of the served document: by tag in document order, reads before writes, deletions last. */
export function operationsOf(document: Json): Operation[] {
  const list: Operation[] = []
  for (const [path, item] of Object.entries<Json>(document.paths))
    for (const [method, spec] of Object.entries<Json>(item))
      list.push({ id: spec.operationId, method: method.toUpperCase(), path, tag: spec.tags[0], spec })
  const tags = [...new Set(list.map((op) => op.tag))]
  return list.sort(
    (a, b) => tags.indexOf(a.tag) - tags.indexOf(b.tag) || ORDER.indexOf(a.method) - ORDER.indexOf(b.method),
  )
}

export interface World {
  /** Ids of the world's records by brand, or the ones matching `pattern:<regex>`. */
  pool: (key: string) => string[]
  /** The owner's token with every scope. */
  full: string
  /** Who calls: mostly the owner with every scope, then narrower, foreign, missing and forged tokens. */
  tokens: (string | null)[]
}

/** A sample world (one record of every kind) and the tokens that call into it. */
export async function newWorld(server: Awaited<ReturnType<typeof startTestServer>>): Promise<World> {
  const { ids, ws } = await sampleWorld(server)
  const full = await server.engine.tokens.issueAccessToken({
    userId: ws.owner.user.id,
    scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link', 'offline_access'],
  })
  const guest = await ws.addMember('guest')
  const outsider = await newPerson(server.engine)
  // Ids only: a name such as `task` (a record type) is not a TaskId.
  const values = Object.values(ids).filter((v) => !v.includes(',') && /^[a-z]+_/.test(v))
  return {
    pool(key) {
      if (!key.startsWith('pattern:')) return values.filter((v) => BRAND_OF[v.split('_')[0]!] === key)
      const pattern = new RegExp(key.slice('pattern:'.length))
      return values.filter((v) => pattern.test(v))
    },
    full,
    tokens: [full, full, full, full, ws.owner.token, guest.token, outsider.token, null, 'e30.e30.e30'],
  }
}
