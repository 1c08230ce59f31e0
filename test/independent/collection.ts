/**
 * What the harness does to Portman's collection before Newman sends it (docs/testing.md, "An
 * independent fuzzer"). Portman writes one folder of contract requests per tag, then one folder
 * holding a `<tag> Variations` folder per tag, and Newman sends them in that order to one world: the
 * contract pass deleted the records its variations were then sent to, and the deletions of one tag
 * took away what the next tag's requests needed. Here each tag's contract requests and each tag's
 * variations are a batch, sent by a Newman run of its own to a world of its own, and within a
 * contract folder the deletions go last.
 */
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
 * The requests in their order, with every DELETE moved after the rest and the deepest paths first:
 * a task's comment goes before the task, a team's label before the team.
 */
export function deletionsLast(items: Json[]): Json[] {
  const isDelete = (item: Json) => item.request?.method === 'DELETE'
  const depth = (item: Json) => (item.request?.url?.path ?? []).length
  const deletions = items.filter(isDelete).sort((a, b) => depth(b) - depth(a))
  return [...items.filter((item) => !isDelete(item)), ...deletions]
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
