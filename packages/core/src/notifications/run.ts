import { type EventHub, watchHub } from '../kernel/events/events.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { SystemRunner } from '../kernel/operation.ts'
import type { Storage } from '../kernel/storage.ts'
import { notifyStep, remindStep } from './notifier.ts'
import type { DueTask } from './storage.ts'

export type { SystemRunner } from '../kernel/operation.ts'

export interface NotifierPass {
  /** Notifications written. */
  notifications: number
  /** Orgs whose log was read. */
  orgs: number
  /** Orgs (or reminder batches) whose transaction failed; the next pass tries them again. */
  failed: number
}

/** Orgs read per pass; more wait for the next one. */
const ORGS_PER_PASS = 1_000

/**
 * Brings every org's notifications up to the end of its log, one transaction per batch of events.
 * Safe to run from several processes at once: each org's position is claimed under a lock.
 */
export async function notifyAll(
  storage: Storage,
  run: SystemRunner,
  onError?: (error: unknown) => void,
): Promise<NotifierPass> {
  const pass: NotifierPass = { notifications: 0, orgs: 0, failed: 0 }
  for (const orgId of await storage.read((s) => s.notifier.behind(ORGS_PER_PASS))) {
    pass.orgs++
    try {
      for (;;) {
        const step = await run(orgId, (ctx) => notifyStep(ctx, orgId))
        pass.notifications += step?.created ?? 0
        if (!step?.more) break
      }
    } catch (error) {
      pass.failed++
      onError?.(error)
    }
  }
  return pass
}

/** Due-soon and overdue reminders for `now`'s UTC day; running it again that day writes nothing new. */
export async function remindAll(
  storage: Storage,
  run: SystemRunner,
  now: Date,
  onError?: (error: unknown) => void,
): Promise<NotifierPass> {
  const today = now.toISOString().slice(0, 10)
  const through = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10)
  const pass: NotifierPass = { notifications: 0, orgs: 0, failed: 0 }
  let after: { orgId: string; id: string } | null = null
  for (;;) {
    const tasks = await storage.read((s) => s.notifier.dueTasks(through, after, 500))
    const byOrg = new Map<OrgId, DueTask[]>()
    for (const t of tasks) byOrg.set(t.orgId, [...(byOrg.get(t.orgId) ?? []), t])
    for (const [orgId, list] of byOrg) {
      pass.orgs++
      try {
        pass.notifications += (await run(orgId, (ctx) => remindStep(ctx, orgId, list, today))) ?? 0
      } catch (error) {
        pass.failed++
        onError?.(error)
      }
    }
    if (tasks.length < 500) return pass
    after = { orgId: tasks.at(-1)!.orgId, id: tasks.at(-1)!.id }
  }
}

export interface NotifierLoop {
  /** Resolves once the pass in progress, if any, has finished. */
  stop(): Promise<void>
}

/**
 * The notifier in the background: a pass whenever the hub says a log grew (and every `pollMs`
 * anyway, since a lost wake-up must only delay), and reminders every `remindEveryMs`.
 */
export function startNotifierLoop(options: {
  hub: EventHub
  notify: () => Promise<NotifierPass>
  remind: () => Promise<NotifierPass>
  pollMs: number
  remindEveryMs: number
  onError: (error: unknown) => void
  /** Each finished pass, for a host's log. */
  onPass?: ((kind: 'notify' | 'remind', pass: NotifierPass) => void) | undefined
}): NotifierLoop {
  const watch = watchHub(options.hub, null)
  let stopped = false
  let wakeStop: () => void = () => {}
  const stopping = new Promise<void>((resolve) => {
    wakeStop = resolve
  })
  const loop = (async () => {
    let remindedAt = Number.NEGATIVE_INFINITY
    while (!stopped) {
      await options
        .notify()
        .then((pass) => options.onPass?.('notify', pass))
        .catch(options.onError)
      if (Date.now() - remindedAt >= options.remindEveryMs) {
        remindedAt = Date.now()
        await options
          .remind()
          .then((pass) => options.onPass?.('remind', pass))
          .catch(options.onError)
      }
      await Promise.race([watch.wait(options.pollMs), stopping])
    }
  })()
  return {
    async stop() {
      stopped = true
      wakeStop()
      watch.close()
      await loop
    },
  }
}
