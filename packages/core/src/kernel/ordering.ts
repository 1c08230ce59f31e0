import { type TObject, Type } from '@sinclair/typebox'
import { type IdBrand, IdSchema } from './ids.ts'
import { ProblemError } from './problems.ts'

/**
 * The one reorder idiom of the API: `POST …/{id}/move` with exactly one of `beforeId` or `afterId`,
 * another item of the same ordered list. A move names one neighbour rather than the whole list,
 * so two people reordering different items never overwrite each other (Jira's rank and Asana's
 * `insert_before`/`insert_after` work the same way).
 */
export function MoveBody(brand: IdBrand, what: string): TObject {
  return Type.Object(
    {
      beforeId: Type.Optional(IdSchema(brand, `Move it just before this ${what}.`)),
      afterId: Type.Optional(IdSchema(brand, `Move it just after this ${what}.`)),
    },
    {
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      description: `Exactly one of \`beforeId\` or \`afterId\`: another ${what} of the same list.`,
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
    throw new ProblemError('reference_not_found', `\`${field}\` is not ${what}.`, {
      errors: [{ pointer: `/body/${field}`, message: `Must be ${what}` }],
    })
  }
  const order = [...rest]
  order.splice(field === 'beforeId' ? at : at + 1, 0, item)
  return { order, moved: order.some((i, index) => items[index]?.id !== i.id) }
}

/**
 * Checks that a reorder request names each current item exactly once and returns the items in the
 * requested order. `field` is the body field holding the ids; `what` names the items in the problem
 * ("the team's active states").
 */
export function requirePermutation<T extends { id: string }>(
  order: readonly string[],
  items: readonly T[],
  field: string,
  what: string,
): T[] {
  const byId = new Map(items.map((item) => [item.id, item]))
  if (
    order.length !== items.length ||
    new Set(order).size !== order.length ||
    order.some((id) => !byId.has(id))
  ) {
    throw new ProblemError('rule_violated', `\`${field}\` must list each of ${what} exactly once.`, {
      errors: [
        { pointer: `/body/${field}`, message: `Expected the ${items.length} ids of ${what}, each once` },
      ],
    })
  }
  return order.map((id) => byId.get(id)!)
}
