/**
 * The two tiers of the suite. `pnpm test` (CI's gate) runs every kind of assertion at sizes that fit
 * its budget; `pnpm test:deep` (WORKGRAPH_TEST_TIER=deep) runs the same tests at the sizes of a
 * pre-release run. A file states both sizes where it calls this; a variable named after the size
 * overrides either (`PERMISSION_WORLDS=500`).
 */
export const DEEP = process.env.WORKGRAPH_TEST_TIER === 'deep'

export function sized(variable: string, sizes: { test: number; deep: number }): number {
  const given = process.env[variable]
  return given ? Number(given) : DEEP ? sizes.deep : sizes.test
}
