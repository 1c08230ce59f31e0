/** The shared tail of every example id: a fixed ULID but for its last two characters. */
const ULID_HEAD = '01JD3Q2R4S5T6V7W8X9YZABC'
/** Crockford base-32 letters, so every rank gives a valid ULID. */
const RANKS = 'DEFGHJKMNPQRSTVWXYZ'

/**
 * The id the reference's examples give the `rank`-th record of a type: 0 the main one (the task, the
 * project an example is about), 1 another, and so on. Every example uses these, so one id means one
 * record across the whole document, and the contract tests send each request example to a seeded
 * workspace with every example id replaced by its record of the same type and rank
 * (test/support/example-world.ts).
 */
export function exampleId(prefix: string, rank = 0): string {
  const letter = RANKS[rank]
  if (letter === undefined) throw new RangeError(`No example id of rank ${rank}`)
  return `${prefix}_${ULID_HEAD}${letter}E`
}

/** The `nextCursor` of a list example that has more pages: opaque and signed, like a real one. */
export const EXAMPLE_CURSOR = 'eyJzIjoiLi4uIn0.c2lnbmF0dXJl'
