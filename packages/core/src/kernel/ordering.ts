import { ProblemError } from './problems.ts'

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
    throw new ProblemError('validation_failed', `\`${field}\` must list each of ${what} exactly once.`, {
      errors: [
        { pointer: `/body/${field}`, message: `Expected the ${items.length} ids of ${what}, each once` },
      ],
    })
  }
  return order.map((id) => byId.get(id)!)
}
