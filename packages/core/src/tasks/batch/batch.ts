import type { TaskId, TeamId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { atPointer } from '../../kernel/problems/pointers.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { createTask } from '../create.ts'
import type { Task } from '../schemas.ts'
import { type TaskFields, updateTask } from '../service.ts'

/** Most items one batch call takes. */
export const BATCH_MAX = 100

type CreateItem = TaskFields & { teamId: TeamId; title: string }
type UpdateItem = TaskFields & { id: TaskId }

/**
 * Creates every task or none: each item runs through `createTask` (the same rules as one
 * `tasks.create`, `contribute` on its team) inside the operation's one transaction.
 */
export async function batchCreateTasks(ctx: OperationContext, items: CreateItem[]): Promise<Task[]> {
  // Each item takes its team's task counter. Batches over several teams first take them all in one
  // order, so two concurrent batches wait for each other instead of deadlocking on Postgres.
  const teams = [...new Set(items.map((item) => item.teamId))].sort()
  if (teams.length > 1) for (const teamId of teams) await ctx.store.locks.acquire(`task-numbers:${teamId}`)
  return eachItem(items, async (item) => {
    await ctx.require('contribute', { type: 'team', id: item.teamId, pointer: '/body/teamId' })
    return createTask(ctx, item)
  })
}

/** Updates every task or none, each through `updateTask` with `contribute` on the task. */
export async function batchUpdateTasks(ctx: OperationContext, items: UpdateItem[]): Promise<Task[]> {
  const seen = new Map<string, number>()
  for (const [i, item] of items.entries()) {
    const first = seen.get(item.id)
    if (first !== undefined) {
      throw new ProblemError('rule_violated', `Items ${first} and ${i} update the same task.`, {
        errors: [{ pointer: `/body/items/${i}/id`, message: `The task of item ${first} again` }],
      })
    }
    seen.set(item.id, i)
  }
  return eachItem(items, async ({ id, ...fields }) => {
    await ctx.require('contribute', { type: 'task', id, pointer: '/body/id' })
    return updateTask(ctx, id, fields)
  })
}

/**
 * Runs every item, collecting the refusals of all of them (each pointer under `/body/items/{i}`)
 * so that one answer names every bad item. The refusals are checks made before a write, so the
 * transaction is still usable after one; any other error ends the batch at once. When anything
 * was refused the whole batch throws, and the transaction rolls back what the others did.
 */
async function eachItem<I, T>(items: I[], run: (item: I) => Promise<T>): Promise<T[]> {
  const results: T[] = []
  const failures: Array<{ index: number; error: ProblemError }> = []
  for (const [index, item] of items.entries()) {
    try {
      results.push(await run(item))
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error
      failures.push({ index, error: atPointer(error, `/body/items/${index}`) })
    }
  }
  const first = failures[0]
  if (!first) return results
  const detail = `${failures.length} of ${items.length} items were refused; nothing was changed. Item ${first.index}: ${first.error.message}`
  throw new ProblemError(first.error.code, detail, {
    errors: failures.flatMap((f) => f.error.errors ?? []),
    extensions: {
      ...first.error.extensions,
      failedItems: failures.map((f) => ({ index: f.index, code: f.error.code, detail: f.error.message })),
    },
  })
}
