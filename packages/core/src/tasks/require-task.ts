import { currentOrg } from '../kernel/context.ts'
import type { TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import type { Task } from './schemas.ts'

/** The task as the actor sees it: a task they cannot view is a 404, like one that does not exist. */
export async function requireTask(ctx: OperationContext, taskId: TaskId): Promise<Task> {
  const task = await ctx.store.tasks.get(currentOrg(ctx).id, taskId, await ctx.scope())
  if (!task) throw notFound('Task')
  return task
}
