/** One workspace's bulk: its families' rows built in memory, then written in one transaction. */
import { createKyselyStorage } from '@workgraph/kysely'
import type { RunningServer } from '@workgraph/server'
import { addComment } from './comments.ts'
import { addAssigned } from './notifications.ts'
import { type Bulk, type BulkContext, type Db, HOUR, insertRows } from './shared.ts'
import { taskFamily } from './tasks.ts'

/**
 * One workspace's tasks and what hangs off them, in one transaction: task n is created a minute
 * after task n-1 (the last three days before seeding are left free), every tenth is assigned to the
 * person and due within four days either side of today, one in twenty is completed in the last two
 * days (never near 24 hours ago, so the `unblocked` section does not change during a run), one in a
 * hundred archived, a third of the assigned ones in the running cycle, every fourth assigned one
 * blocked by a completed task (and every eighth by an open one too), a comment by the owner on one
 * task in ten.
 */
export async function bulkOrg(server: RunningServer, input: Omit<BulkContext, 'start'>) {
  const { storage } = server
  const { orgId, teamId, count, now } = input
  const ctx: BulkContext = { ...input, start: now - 3 * 24 * HOUR - count * 60_000 }
  const states = await storage.read((s) => s.states.listForTeam(orgId, teamId, { includeArchived: false }))
  const addTask = taskFamily(ctx, {
    backlog: states.find((s) => s.category === 'backlog')!.id,
    done: states.find((s) => s.category === 'completed')!.id,
  })
  const bulk: Bulk = {
    tasks: [],
    seedTasks: [],
    history: [],
    subscribers: [],
    dependencies: [],
    comments: [],
    seedComments: [],
    notifications: [],
    events: [],
  }
  for (let n = 0; n < count; n++) {
    const task = addTask(bulk, n)
    if (task.assigned) addAssigned(bulk, ctx, n, task)
    if (n % 10 === 3) addComment(bulk, ctx, n, task.id)
  }
  bulk.events.sort((a, b) => a.at - b.at)
  await write(server, ctx, bulk)
  return { tasks: bulk.seedTasks, comments: bulk.seedComments }
}

async function write(server: RunningServer, ctx: BulkContext, bulk: Bulk): Promise<void> {
  const { storage } = server
  const { orgId, teamId, count } = ctx
  await storage.db.transaction().execute(async (trx) => {
    await insertRows(trx as Db, 'tasks', bulk.tasks)
    await insertRows(trx as Db, 'taskSubscribers', bulk.subscribers)
    await insertRows(trx as Db, 'taskDependencies', bulk.dependencies)
    await insertRows(trx as Db, 'comments', bulk.comments)
    await insertRows(trx as Db, 'notifications', bulk.notifications)
    await trx
      .updateTable('teams')
      .set({ nextNumber: count })
      .where('orgId', '=', orgId)
      .where('id', '=', teamId)
      .execute()
    // History and events through storage's own bulk writes: the event sequence stays the counter's.
    await createKyselyStorage({ db: trx as Db, dialect: storage.dialect }).read(async (store) => {
      for (let i = 0; i < bulk.history.length; i += 2000)
        await store.taskHistory.insert(bulk.history.slice(i, i + 2000) as never)
      let last = 0
      for (let i = 0; i < bulk.events.length; i += 2000) {
        const stored = await store.events.append(
          orgId,
          bulk.events.slice(i, i + 2000).map((e) => e.event) as never,
        )
        last = stored.at(-1)?.seq ?? last
      }
      // The notifier has delivered these: its notifications are the bulk rows above.
      await store.notifier.claim(orgId)
      await store.notifier.advance(orgId, last)
    })
  })
}
