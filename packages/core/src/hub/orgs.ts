import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { StreamReader } from '../streams/readers.ts'

/**
 * The caller's context inside one workspace of a hub read, as its member there: services called
 * with it check that workspace's capabilities and read scope. Null for a deleted workspace.
 */
export async function contextIn(
  ctx: OperationContext,
  reader: StreamReader,
): Promise<OperationContext | null> {
  // A hub reader comes with the org its standing read (`fanOut`).
  const org = reader.org ?? (await ctx.store.orgs.get(reader.orgId))
  return org ? ctx.within(org, reader.actor, reader.known) : null
}

/** Runs a look-up of one record, answering null when the reader may not view it (a 404). */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404) return null
    throw error
  }
}
