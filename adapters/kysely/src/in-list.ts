/** The longest `in (…)` list one statement takes; longer lists are read in several statements. */
export const IN_LIST_MAX = 256

/**
 * Values for `in (…)` lists, cut into lists of at most `IN_LIST_MAX` and each padded to a power of
 * two by repeating its last value (a repeat changes no `in`): a statement compiled once per size
 * serves every count with a handful of shapes. Empty for no values.
 */
export function inLists<T>(values: readonly T[]): T[][] {
  const lists: T[][] = []
  for (let start = 0; start < values.length; start += IN_LIST_MAX) {
    const list = values.slice(start, start + IN_LIST_MAX)
    let size = 1
    while (size < list.length) size *= 2
    while (list.length < size) list.push(list.at(-1)!)
    lists.push(list)
  }
  return lists
}
