import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { type IdBrand, IdSchema } from './ids.ts'
import { referenceNotFound } from './references.ts'

/**
 * The one reorder idiom of the API: `POST …/{id}/move` with exactly one of `beforeId` or `afterId`,
 * another item of the same ordered list. A move names one neighbour rather than the whole list,
 * so two people reordering different items never overwrite each other (Jira's rank and Asana's
 * `insert_before`/`insert_after` work the same way).
 */
export function MoveBody(brand: IdBrand, what: string, list?: { name: string; schema: TSchema }): TObject {
  return Type.Object(
    {
      // An item that stands in several lists (a task: its board column, project and cycle) names which.
      ...(list ? { [list.name]: list.schema } : {}),
      beforeId: Type.Optional(IdSchema(brand, `Move it just before this ${what}.`)),
      afterId: Type.Optional(IdSchema(brand, `Move it just after this ${what}.`)),
    },
    {
      additionalProperties: false,
      minProperties: list ? 2 : 1,
      maxProperties: list ? 2 : 1,
      description: list
        ? `\`${list.name}\` and exactly one of \`beforeId\` or \`afterId\`: another ${what} of that list.`
        : `Exactly one of \`beforeId\` or \`afterId\`: another ${what} of the same list.`,
    },
  )
}

/** A move request as `MoveBody` parses it. */
export interface MoveTo {
  beforeId?: string
  afterId?: string
}

/**
 * Places `movedId` just before or after the anchor `to` names, among `items` in their current
 * order, and returns the new order (`moved` is false when nothing changed). An anchor that is not
 * another item of the list answers 422 `reference_not_found` pointing at the body field; `what`
 * names the list in the problem ("another milestone of the same project").
 */
export function placeMoved<T extends { id: string }>(
  items: readonly T[],
  movedId: string,
  to: MoveTo,
  what: string,
): { order: T[]; moved: boolean } {
  const [field, anchorId] = to.beforeId ? ['beforeId', to.beforeId] : ['afterId', to.afterId]
  const item = items.find((i) => i.id === movedId)
  const rest = items.filter((i) => i.id !== movedId)
  const at = rest.findIndex((i) => i.id === anchorId)
  if (!item || at < 0) {
    throw referenceNotFound(`/body/${field}`, `\`${field}\` is not ${what}.`, `Must be ${what}`)
  }
  const order = [...rest]
  order.splice(field === 'beforeId' ? at : at + 1, 0, item)
  return { order, moved: order.some((i, index) => items[index]?.id !== i.id) }
}

/**
 * The whole list after the caller reordered the part of it they can see: `shown` (the visible items
 * in their new order) takes the slots the visible items held, and every hidden item keeps its slot,
 * so a move reveals nothing about what the caller cannot see and disturbs none of it.
 */
export function withHiddenInPlace<T extends { id: string }>(all: readonly T[], shown: readonly T[]): T[] {
  const visible = new Set(shown.map((i) => i.id))
  const next = shown[Symbol.iterator]()
  return all.map((item) => (visible.has(item.id) ? next.next().value! : item))
}
