import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { readerOfStanding, type StandingReader } from '../streams/readers.ts'

/** How long one workspace's part of a hub read may take before it is reported in `partial`. */
export const HUB_ORG_BUDGET_MS = 5_000
/** How many workspaces are read at once. */
export const HUB_CONCURRENCY = 4
/**
 * The most workspaces one hub read covers (the first by id): what bounds the per-workspace lists
 * (`hub.resolve`, `hub.inbox.counts`, `partial`), whose schemas say so with `maxItems`.
 */
export const HUB_WORKSPACES_MAX = 1000
/** The most items a merged hub list without pages answers (`hub.agenda`, `hub.digest`): the first in its order. */
export const HUB_ITEMS_MAX = 2000

export interface PartialOrg {
  orgId: OrgId
  code: string
}

export interface FanOutResult<T> {
  /** In membership (org id) order; workspaces where the caller is no longer a member are absent. */
  results: Array<{ orgId: OrgId; reader: StandingReader; value: T }>
  partial: PartialOrg[]
}

/**
 * Runs `read` once per active membership of the caller (each with its own reader: the member and
 * their read scope there), at most `HUB_CONCURRENCY` at once, each within `HUB_ORG_BUDGET_MS`. No
 * query spans workspaces: the caller merges the values in code. A workspace that throws or runs out
 * of time is reported in `partial` (its problem code, `timeout`, or `internal_error`), never failing
 * the whole answer; a problem the caller caused (a bad cursor) still fails it.
 */
export async function fanOut<T>(
  ctx: OperationContext,
  read: (reader: StandingReader) => Promise<T>,
  options: { only?: OrgId | undefined; budgetMs?: number } = {},
): Promise<FanOutResult<T>> {
  // Every membership's org, member, teams and grants in one read, not one per workspace.
  let standings = await ctx.store.access.standingsOf(ctx.principal!.userId)
  if (options.only) standings = standings.filter((s) => s.org.id === options.only)
  standings = standings.slice(0, HUB_WORKSPACES_MAX)
  const budget = options.budgetMs ?? HUB_ORG_BUDGET_MS
  const slots: Array<{ orgId: OrgId; reader: StandingReader; value: T } | PartialOrg | null> = []
  let next = 0
  async function worker(): Promise<void> {
    while (next < standings.length) {
      const i = next++
      const standing = standings[i]!
      const orgId = standing.org.id
      slots[i] = await within(budget, async () => {
        const reader = await readerOfStanding(ctx.store, standing)
        return { orgId, reader, value: await read(reader) }
      }).catch((error: unknown) => {
        if (error instanceof ProblemError && CALLER_ERRORS.has(error.code)) throw error
        return { orgId, code: problemCodeOf(error) }
      })
    }
  }
  await Promise.all(Array.from({ length: Math.min(HUB_CONCURRENCY, standings.length) }, worker))
  const results: FanOutResult<T>['results'] = []
  const partial: PartialOrg[] = []
  for (const slot of slots) {
    if (!slot) continue
    if ('code' in slot) partial.push(slot)
    else results.push(slot)
  }
  return { results, partial }
}

/** Problems that are the caller's to fix: they fail the whole answer rather than one workspace. */
const CALLER_ERRORS = new Set(['invalid_cursor', 'validation_failed', 'rule_violated'])

class Timeout extends Error {}

function within<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), ms)
  })
  return Promise.race([run(), late]).finally(() => clearTimeout(timer))
}

/** What `partial` says of a workspace whose part threw. */
export function problemCodeOf(error: unknown): string {
  if (error instanceof Timeout) return 'timeout'
  if (error instanceof ProblemError) return error.code
  return 'internal_error'
}
