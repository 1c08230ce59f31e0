/**
 * What the harness does to Portman's collection before Newman sends it (docs/testing.md, "An
 * independent fuzzer"). Portman writes one folder of contract requests per tag, then one folder
 * holding a `<tag> Variations` folder per tag, and Newman sends them in that order to one world: the
 * contract pass deleted the records its variations were then sent to, and the deletions of one tag
 * took away what the next tag's requests needed. Here each tag's contract requests and each tag's
 * variations are a batch, sent by a Newman run of its own to a world of its own, and within a
 * contract folder the deletions go last.
 */

import { SETTLING_VERBS } from '../support/settling-verbs.ts'
import { operationOf, settles } from './in-world.ts'

type Json = Record<string, any>

/** One folder of requests, sent to a world of its own. */
export interface Batch {
  name: string
  folder: Json
}

/** Contract and variation folders per tag, in the collection's order, with `tags` alone when given. */
export function batchesOf(collection: Json, tags?: string[]): Batch[] {
  const folders: Json[] = collection.item ?? []
  const variations = folders.find((f) =>
    (f.item ?? []).some((sub: Json) => typeof sub.name === 'string' && sub.name.endsWith(' Variations')),
  )
  const wanted = (tag: string) => !tags || tags.includes(tag)
  const batches: Batch[] = []
  for (const folder of folders) {
    if (folder === variations || !folder.item || !wanted(folder.name)) continue
    batches.push({ name: folder.name, folder: { ...folder, item: deletionsLast(folder.item) } })
  }
  for (const folder of variations?.item ?? []) {
    const tag = String(folder.name).replace(/ Variations$/, '')
    if (!wanted(tag)) continue
    batches.push({ name: folder.name, folder })
  }
  return batches
}

/**
 * Verbs after which a record may be gone or settled (`SETTLING_VERBS`),
 * and `lock` and `pause`, which a later write to the record meets as a 409 until they are undone.
 */
const SETTLING = new Set([...SETTLING_VERBS, 'lock', 'pause'])
/** Verbs that undo another, and the verb each undoes: `restore` comes after `archive`. */
const UNDOES: Record<string, string> = {
  restore: 'archive',
  reactivate: 'deactivate',
  unresolve: 'resolve',
  unread: 'read',
  unsnooze: 'snooze',
  resume: 'pause',
  unlock: 'lock',
}

/**
 * The requests of a contract folder in an order a single world can answer: first those that leave
 * their record as it was, then those that settle it (archive, revoke, lock: a later request on it
 * would meet a 409), then those that undo one of these (`tasks.restore` after `tasks.archive`;
 * `documents.versions.restore` undoes nothing), by the operation each request stands for, then every DELETE, the deepest paths first (a
 * task's comment before the task) and, at one depth, the folder's own resource last (a project
 * after its milestones and relations).
 */
export function deletionsLast(items: Json[]): Json[] {
  const path = (item: Json): string[] => (item.request?.url?.path ?? []).filter((s: string) => s !== 'v1')
  const resource = (item: Json) => path(item).find((s, i) => i > 0 && !s.startsWith(':')) ?? ''
  const own = new Map<string, number>()
  for (const item of items) own.set(resource(item), (own.get(resource(item)) ?? 0) + 1)
  const ids = new Set(items.map((item) => operationOf(item)?.id))
  const rank = (item: Json) => {
    if (item.request?.method === 'DELETE') return 3
    const id = operationOf(item)?.id ?? ''
    const verb = id.split('.').at(-1) ?? ''
    const undone = UNDOES[verb]
    if (undone && ids.has(id.replace(/\.\w+$/, `.${undone}`))) return 2
    return SETTLING.has(verb) || settles(item) ? 1 : 0
  }
  const deletions = (a: Json, b: Json) =>
    path(b).length - path(a).length || (own.get(resource(a)) ?? 0) - (own.get(resource(b)) ?? 0)
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const byRank = rank(a.item) - rank(b.item)
      if (byRank !== 0) return byRank
      return (rank(a.item) === 3 && deletions(a.item, b.item)) || a.index - b.index
    })
    .map(({ item }) => item)
}

/** The collection holding one batch's folder alone, for a Newman run of its own. */
export function collectionOf(collection: Json, batch: Batch): Json {
  return { ...collection, item: [batch.folder] }
}

/**
 * The collection without the variations that send their contract request unchanged, and their
 * names: Portman makes a "maximum length" or "minimum length" variation for every bounded field of
 * the schema and a "required" one for every required field, but alters only the fields its request
 * carries (a field of the other branch of a `oneOf`, or an optional one the example leaves out, stays
 * as it was). Such a request is valid, and its expected refusal is no check of the server.
 */
export function unchangedVariations(collection: Json): { collection: Json; dropped: string[] } {
  const folders: Json[] = collection.item ?? []
  const contract = new Map<string, Json>()
  for (const folder of folders)
    for (const item of folder.item ?? [])
      if (item.request) contract.set(`${folder.name}\u0000${item.name}`, item)
  const dropped: string[] = []
  const seen = new Set<string>()
  const item = folders.map((folder) => {
    if (!(folder.item ?? []).some((sub: Json) => String(sub.name).endsWith(' Variations'))) return folder
    return {
      ...folder,
      item: folder.item.map((tagFolder: Json) => {
        const tag = String(tagFolder.name).replace(/ Variations$/, '')
        return {
          ...tagFolder,
          item: (tagFolder.item ?? []).filter((variation: Json) => {
            const name = String(variation.name)
            // One copy of each fuzzed request: a collection converted with `openApiResponse: '4*'`
            // holds one per documented 4xx status (`[fuzz[400]]`, `[fuzz[401]]`, …), all alike.
            const fuzz = name.replace(/\[fuzz\[\d{3}\]\]/, '[fuzz]')
            if (seen.has(fuzz)) return false
            seen.add(fuzz)
            const at = name.indexOf('[fuzz')
            const original = at > 0 ? contract.get(`${tag}\u0000${name.slice(0, at)}`) : undefined
            if (!original || sent(original) !== sent(variation)) return true
            dropped.push(`${tag}: ${fuzz}`)
            return false
          }),
        }
      }),
    }
  })
  return { collection: { ...collection, item }, dropped }
}

/** What a request sends: its method, path, enabled query parameters, headers and body. */
function sent(item: Json): string {
  const { method, url, header, body } = item.request
  const raw = body?.raw
  let parsed: unknown = raw
  try {
    parsed = typeof raw === 'string' && raw.trim() ? JSON.parse(raw) : raw
  } catch {}
  return JSON.stringify([
    method,
    url?.path,
    (url?.variable ?? []).map((v: Json) => [v.key, v.value]),
    (url?.query ?? []).filter((q: Json) => !q.disabled).map((q: Json) => [q.key, q.value]),
    (header ?? []).filter((h: Json) => !h.disabled).map((h: Json) => [h.key, h.value]),
    parsed,
  ])
}

/**
 * The collection without the checks Portman 1.33.0 writes from a misreading of the document, and
 * their names: a content-type check compares the header with the documented type as a string, so a
 * media range (`*` slash `*`, `attachments.download`) never matches; and a JSON-body check goes with every
 * documented type that contains `json` (`application/x-ndjson`, `exports.download`), though such a
 * body is no JSON document. Every other check of these requests stays.
 */
export function misreadChecks(collection: Json): { collection: Json; dropped: string[] } {
  const dropped: string[] = []
  const walk = (items: Json[]): Json[] =>
    items.map((item) => {
      if (item.item) return { ...item, item: walk(item.item) }
      const event = (item.event ?? []).map((e: Json) => {
        if (e.listen !== 'test') return e
        const exec: string[] = e.script?.exec ?? []
        const documented = exec.join('').match(/Content-Type is ([^"]+)"/)?.[1]
        const kept = exec.filter((test) => {
          const range = /Content-Type is [^"]*\*\/\*"/.test(test)
          const notJson =
            documented !== undefined &&
            !/^application\/(.+\+)?json$/.test(documented) &&
            test.includes('Response has JSON Body')
          if (range || notJson) dropped.push(`${item.name}: ${test.match(/ - ([^"]+)"/)?.[1] ?? test}`)
          return !(range || notJson)
        })
        return { ...e, script: { ...e.script, exec: kept } }
      })
      return { ...item, event }
    })
  return { collection: { ...collection, item: walk(collection.item ?? []) }, dropped }
}
