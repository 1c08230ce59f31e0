import type { Json, Operation } from '../../fuzz/world.ts'

/** A resource the stateful sequence follows: create, get, update and delete of one record. */
export interface Family {
  create: Operation
  get: Operation
  update: Operation
  delete: Operation
  idParam: string
}

/**
 * Resource families, from the document alone: a POST on a collection whose 201 answers an object
 * with an `id`, and GET, PATCH and DELETE on the collection's path plus one `{…Id}` segment, the GET
 * answering the same schema as the create.
 */
export function familiesOf(document: Json, operations: Operation[]): Family[] {
  const at = new Map(operations.map((op) => [`${op.method} ${op.path}`, op]))
  const schemaName = (op: Operation, status: string) =>
    op.spec.responses?.[status]?.content?.['application/json']?.schema?.$ref as string | undefined
  const families: Family[] = []
  for (const create of operations) {
    if (create.method !== 'POST') continue
    const ref = schemaName(create, '201')
    if (!ref) continue
    const schema = document.components.schemas[ref.split('/').at(-1)!]
    if (!schema?.properties?.id) continue
    for (const path of at.keys()) {
      const match = path.match(/^GET (.+)\/\{(\w+Id)\}$/)
      if (!match || match[1] !== create.path) continue
      const get = at.get(path)!
      const update = at.get(`PATCH ${get.path}`)
      const remove = at.get(`DELETE ${get.path}`)
      if (update && remove && schemaName(get, '200') === ref)
        families.push({ create, get, update, delete: remove, idParam: match[2]! })
    }
  }
  return families
}

/** Operations answering server-sent events: Prism's forwarder reads a body to its end, so they stay out. */
export function streams(op: Operation): boolean {
  return Object.values<Json>(op.spec.responses).some((r) => r.content?.['text/event-stream'])
}
