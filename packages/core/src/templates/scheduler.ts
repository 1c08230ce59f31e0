import type { OrgId, RecurrenceId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Storage } from '../kernel/storage.ts'
import type { Candidate } from '../notifications/derive.ts'
import { createDelivery } from '../notifications/notifier.ts'
import type { SystemRunner } from '../notifications/run.ts'
import { runRecurrence } from './recurrences/recurrences.ts'
import type { DueRecurrence, DueReminder } from './storage.ts'

/** What one scheduler pass did. */
export interface SchedulerPass {
  /** Tasks created for occurrences. */
  tasks: number
  /** Reminder notifications written. */
  reminders: number
  /** Recurrences or reminder batches whose transaction failed; the next pass tries them again. */
  failed: number
}

const BATCH = 200

/**
 * Time-driven work of templates: creates the tasks of every due occurrence (UTC dates, by the
 * engine's clock) and delivers due reminders. Safe from several processes at once: each recurrence
 * runs in its own transaction under a lock and a unique key per occurrence, and each reminder is
 * marked delivered in the transaction that notifies, so nothing is created or sent twice.
 */
export async function runScheduler(
  storage: Storage,
  run: SystemRunner,
  now: Date,
  onError?: (error: unknown) => void,
): Promise<SchedulerPass> {
  const pass: SchedulerPass = { tasks: 0, reminders: 0, failed: 0 }
  const today = now.toISOString().slice(0, 10)
  let after: DueRecurrence | null = null
  for (;;) {
    const due: DueRecurrence[] = await storage.read((s) => s.recurrences.due(today, after, BATCH))
    for (const r of due) {
      try {
        pass.tasks +=
          (await run(r.orgId, (ctx) => runRecurrence(ctx, r.orgId, r.id as RecurrenceId, today))) ?? 0
      } catch (error) {
        pass.failed++
        onError?.(error)
      }
    }
    if (due.length < BATCH) break
    after = due.at(-1)!
  }
  const at = now.toISOString()
  let afterReminder: { orgId: string; id: string } | null = null
  for (;;) {
    const due: DueReminder[] = await storage.read((s) => s.reminders.due(at, afterReminder, BATCH))
    const byOrg = new Map<OrgId, DueReminder[]>()
    for (const r of due) byOrg.set(r.orgId, [...(byOrg.get(r.orgId) ?? []), r])
    for (const [orgId, list] of byOrg) {
      try {
        pass.reminders += (await run(orgId, (ctx) => deliverReminders(ctx, orgId, list))) ?? 0
      } catch (error) {
        pass.failed++
        onError?.(error)
      }
    }
    if (due.length < BATCH) break
    afterReminder = { orgId: due.at(-1)!.orgId, id: due.at(-1)!.id }
  }
  return pass
}

/**
 * Sends each reminder once, as a `reminder` notification about its task, to its person if they can
 * still view the task (checked now) and have not turned the kind off. Marking it delivered comes
 * first, in the same transaction: a second scheduler finds it delivered and sends nothing.
 */
async function deliverReminders(ctx: OperationContext, orgId: OrgId, reminders: DueReminder[]) {
  const deliver = createDelivery(ctx, orgId)
  let created = 0
  for (const reminder of reminders) {
    if (!(await ctx.store.reminders.markDelivered(orgId, reminder.id, ctx.now))) continue
    const task = await ctx.store.tasks.get(orgId, reminder.taskId, UNSCOPED)
    if (!task) continue
    const candidate: Candidate = {
      recipientId: reminder.memberId,
      kind: 'reminder',
      record: { type: 'task', id: task.id },
      summary: `${task.key} ${task.title}${reminder.note ? ` — ${reminder.note}` : ''}`,
      target: { type: 'task', id: task.id },
      capability: 'view',
    }
    created += await deliver.send([candidate], {
      actorId: null,
      eventId: null,
      dedupeKey: `reminder:${reminder.id}`,
    })
  }
  return created
}

export interface SchedulerLoop {
  /** Resolves once the pass in progress, if any, has finished. */
  stop(): Promise<void>
}

/** The scheduler in the background: a pass every `everyMs`, each finished one handed to `onPass`. */
export function startSchedulerLoop<T>(options: {
  pass: () => Promise<T>
  everyMs: number
  onError: (error: unknown) => void
  onPass?: ((pass: T) => void) | undefined
}): SchedulerLoop {
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let wake: () => void = () => {}
  const loop = (async () => {
    while (!stopped) {
      await options
        .pass()
        .then((pass) => options.onPass?.(pass))
        .catch(options.onError)
      if (stopped) break
      await new Promise<void>((resolve) => {
        wake = resolve
        timer = setTimeout(resolve, options.everyMs)
      })
    }
  })()
  return {
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      wake()
      await loop
    },
  }
}
