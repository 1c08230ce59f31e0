import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { type Initiative, MAX_INITIATIVE_DEPTH } from './schemas.ts'

/**
 * Refuses to put `child` (null: a new initiative) under `parent` when that closes a cycle (409
 * `initiative_cycle`, with the path from the child down to the parent) or makes the hierarchy deeper
 * than {@link MAX_INITIATIVE_DEPTH} levels (409 `initiative_depth`). The caller holds the org's tree
 * lock, so two concurrent moves cannot each pass and together make a cycle.
 *
 * Every initiative on the path is an ancestor of the parent: visibility rises to ancestors, so the
 * caller, who can view the parent, can view all of them and the path names no hidden record.
 */
export async function checkNesting(
  ctx: OperationContext,
  child: Initiative | null,
  parent: Initiative,
): Promise<void> {
  const repo = ctx.store.initiatives
  const ancestors = await repo.ancestors(parent.orgId, parent.id)
  if (child) {
    const at = ancestors.findIndex((a) => a.id === child.id)
    if (at >= 0) {
      const path = ancestors
        .slice(0, at + 1)
        .map((a) => a.id)
        .reverse()
      throw new ProblemError(
        'initiative_cycle',
        `${child.name} cannot go under ${parent.name}: it is one of its ancestors.`,
        { extensions: { path } },
      )
    }
  }
  const levels = ancestors.length + 1 + (child ? await repo.height(child.orgId, child.id) : 0)
  if (levels > MAX_INITIATIVE_DEPTH) {
    throw new ProblemError(
      'initiative_depth',
      `That would nest initiatives ${levels} levels deep; the limit is ${MAX_INITIATIVE_DEPTH}.`,
      { extensions: { limit: MAX_INITIATIVE_DEPTH, levels } },
    )
  }
}
