import { loadProfile } from '../access/profile.ts'
import { atLeast } from '../kernel/capabilities.ts'
import { type ActorId, type InitiativeId, type MemberId, newId, type OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type AccessProfile, capabilityIn, readScope } from '../kernel/permissions.ts'
import type { Member } from '../orgs/schemas.ts'
import { type Candidate, candidatesOf, type DeriveLookups } from './derive.ts'
import { handleOf } from './mentions.ts'
import type { NotificationKind, NotificationRecord } from './schemas.ts'
import { emitNotification, present } from './service.ts'
import { settingsOf } from './settings.ts'
import type { DueTask } from './storage.ts'
import { subscribedCandidates } from './subscribed.ts'

/** Events read per transaction: a backlog larger than this takes several. */
export const NOTIFIER_BATCH = 200

/**
 * One step of the notifier in one org, inside one transaction: claim the org's position, read the
 * events after it, write their notifications (and the recipients' events), move the position past
 * them. Everything commits together or not at all, so a crash anywhere in between leaves the
 * position where it was and the next run writes exactly what this one would have: nothing is lost
 * and, with the unique `dedupeKey` per recipient, nothing doubled.
 */
export async function notifyStep(
  ctx: OperationContext,
  orgId: OrgId,
  batch = NOTIFIER_BATCH,
): Promise<{ created: number; more: boolean }> {
  const from = await ctx.store.notifier.claim(orgId)
  const events = await ctx.store.events.list(orgId, from, batch)
  const deliver = createDelivery(ctx, orgId)
  let created = 0
  for (const event of events) {
    // The notifier's own events (and a member's settings) notify nobody.
    if (event.kind.startsWith('notification')) continue
    const candidates = [
      ...(await candidatesOf(event, deliver.lookups)),
      ...(await subscribedCandidates(event, deliver.lookups)),
    ]
    created += await deliver.send(candidates, {
      actorId: event.actorId,
      eventId: event.id,
      dedupeKey: event.id,
    })
  }
  const last = events.at(-1)
  if (last) await ctx.store.notifier.advance(orgId, last.seq)
  return { created, more: events.length === batch }
}

/**
 * Reminders for the open tasks of one org due by `today` + 1: `dueSoon` for today and tomorrow,
 * `overdue` before today, to the assignee, at most once per task, kind and day.
 */
export async function remindStep(ctx: OperationContext, orgId: OrgId, tasks: DueTask[], today: string) {
  const deliver = createDelivery(ctx, orgId)
  let created = 0
  for (const task of tasks) {
    const kind: NotificationKind = task.dueDate < today ? 'overdue' : 'dueSoon'
    const candidate: Candidate = {
      recipientId: task.assigneeId,
      kind,
      record: { type: 'task', id: task.id },
      summary: `${task.key} ${task.title}`,
      target: { type: 'task', id: task.id },
      capability: 'view',
    }
    created += await deliver.send([candidate], {
      actorId: null,
      eventId: null,
      dedupeKey: `${kind}:${task.id}:${today}`,
    })
  }
  return created
}

/** Writes notifications for candidates, caching what it reads about members for one transaction. */
export function createDelivery(ctx: OperationContext, orgId: OrgId) {
  let members: Promise<Map<string, Member>> | undefined
  const active = () => {
    members ??= (async () => {
      const all = new Map<string, Member>()
      let after: { value: string; id: string } | null = null
      for (;;) {
        const page = await ctx.store.members.list(
          orgId,
          { status: 'active' },
          { sort: 'id', direction: 'asc', after, limit: 500 },
        )
        for (const m of page.slice(0, 500)) all.set(m.id, m)
        if (page.length <= 500) return all
        after = { value: page[499]!.id, id: page[499]!.id }
      }
    })()
    return members
  }
  const profiles = new Map<string, Promise<AccessProfile>>()
  const settings = new Map<string, Promise<Record<NotificationKind, boolean>>>()
  const profileOf = (m: Member) => {
    let p = profiles.get(m.id)
    if (!p) {
      p = loadProfile(ctx.store, {
        id: m.id,
        kind: 'person',
        orgId,
        role: m.role,
        userId: m.userId,
        name: m.name,
      })
      profiles.set(m.id, p)
    }
    return p
  }
  const kindsOf = (id: MemberId) => {
    let s = settings.get(id)
    if (!s) {
      s = settingsOf(ctx.store, orgId, id).then((x) => x.kinds)
      settings.set(id, s)
    }
    return s
  }
  /** A mute in force silences everything about its record but direct mentions. */
  async function muted(id: MemberId, record: { type: string; id: string }): Promise<boolean> {
    const mute = await ctx.store.notificationMutes.find(orgId, id, record.type, record.id)
    return mute !== null && (mute.until === null || Date.parse(mute.until) > Date.parse(ctx.now))
  }
  /** Checked now, with the permission engine: the recipient's role and grants on the record's containers. */
  async function allowed(m: Member, c: Candidate): Promise<boolean> {
    const containers = await ctx.containersOf(c.target)
    if (!containers) return false
    const profile = await profileOf(m)
    const held = capabilityIn(profile, containers)
    const orgLevel = containers.every((x) => x.type === 'org')
    // An initiative is org-level, yet a reader without org-wide view sees it only through its projects.
    if (c.target.type === 'initiative') {
      const seen = await ctx.store.initiatives.get(orgId, c.target.id as InitiativeId, readScope(profile))
      if (!seen) return false
    }
    return (orgLevel || atLeast(held, 'view')) && (c.capability === 'view' || atLeast(held, c.capability))
  }

  const lookups: DeriveLookups = {
    store: ctx.store,
    orgId,
    async byHandle(handles) {
      if (handles.size === 0) return []
      return [...(await active()).values()]
        .filter((m) => handles.has(handleOf(m.name)))
        .map((m) => m.id as ActorId)
    },
    async everyone() {
      return [...(await active()).keys()] as ActorId[]
    },
  }

  async function send(
    candidates: Candidate[],
    source: { actorId: ActorId | null; eventId: string | null; dedupeKey: string },
  ): Promise<number> {
    const done = new Set<string>()
    let created = 0
    for (const c of candidates) {
      // One notification per recipient and source, never about one's own action.
      if (done.has(c.recipientId) || (c.recipientId === source.actorId && !c.toActor)) continue
      const member = (await active()).get(c.recipientId)
      if (!member) continue
      if (!(await kindsOf(member.id))[c.kind]) continue
      if (c.kind !== 'mentioned' && (await muted(member.id, c.record))) continue
      if (!(await allowed(member, c))) continue
      done.add(c.recipientId)
      const record: NotificationRecord = {
        id: newId('NotificationId'),
        orgId,
        recipientId: member.id,
        kind: c.kind,
        record: c.record,
        actorId: source.actorId,
        eventId: source.eventId,
        summary: c.summary.slice(0, 300),
        dedupeKey: source.dedupeKey,
        readAt: null,
        snoozedUntil: null,
        archivedAt: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      }
      if (!(await ctx.store.notifications.insert(record))) continue
      emitNotification(ctx, 'notification.created', present(record, ctx.now))
      created++
    }
    return created
  }
  return { lookups, send }
}
