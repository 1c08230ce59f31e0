import { currentOrg } from '../../kernel/context.ts'
import { changesOf } from '../../kernel/history-entry.ts'
import { isId, newId, type OrgId, type RecurrenceId, type TeamId, type TemplateId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import type { Actor } from '../../kernel/permissions.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { UNSCOPED } from '../../kernel/read-scope.ts'
import { requireTeam } from '../../teams/service.ts'
import { checkSchedule, dayAfter, nextOccurrence } from '../schedule.ts'
import type { Occurrence, Recurrence, Schedule } from '../schemas.ts'
import type { RecurrenceFilter } from '../storage.ts'
import { requireTemplate, taskFromTemplate } from '../templates.ts'

export interface RecurrenceFields {
  name?: string
  schedule?: Schedule
  startDate?: string
}

const today = (ctx: OperationContext) => ctx.now.slice(0, 10)

export async function listRecurrences(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; teamId?: string; templateId?: string; paused?: boolean },
): Promise<Page<Recurrence>> {
  const orgId = currentOrg(ctx).id
  const filter: RecurrenceFilter = {}
  if (query.teamId) filter.teamId = query.teamId as TeamId
  if (query.templateId) filter.templateId = query.templateId as TemplateId
  if (query.paused !== undefined) filter.paused = query.paused
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['recurrences.list', orgId, filter],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (r: Recurrence) => r.createdAt,
    fetch: (page) => ctx.store.recurrences.list(orgId, filter, page, scope),
  })
}

/** The recurrence, if the caller may view its team; otherwise 404, as a missing one. */
export async function requireRecurrence(ctx: OperationContext, id: RecurrenceId): Promise<Recurrence> {
  const recurrence = await ctx.store.recurrences.get(currentOrg(ctx).id, id, await ctx.scope())
  if (!recurrence) throw notFound('Recurrence')
  return recurrence
}

/** A task template the caller can view, whose team is the recurrence's or any other. */
async function taskTemplate(ctx: OperationContext, templateId: TemplateId) {
  const template = await requireTemplate(ctx, templateId)
  if (template.kind !== 'task') {
    throw new ProblemError('rule_violated', 'Recurring work creates tasks: choose a task template.', {
      errors: [{ pointer: '/body/templateId', message: 'Not a task template' }],
    })
  }
  return template
}

export async function createRecurrence(
  ctx: OperationContext,
  input: { teamId: TeamId; templateId: TemplateId; name: string; schedule: Schedule; startDate?: string },
): Promise<Recurrence> {
  const team = await requireTeam(ctx, input.teamId)
  if (team.archivedAt) throw new ProblemError('archived', 'The team is archived; restore it first.')
  const template = await taskTemplate(ctx, input.templateId)
  const schedule = checkSchedule(input.schedule, '/body/schedule')
  const startDate = input.startDate ?? today(ctx)
  const recurrence: Recurrence = {
    id: newId('RecurrenceId'),
    orgId: team.orgId,
    teamId: team.id,
    templateId: template.id,
    name: input.name,
    schedule,
    startDate,
    nextOccurrence: nextOccurrence(schedule, startDate, today(ctx)),
    lastOccurrence: null,
    pausedAt: null,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.recurrences.insert(recurrence)
  emitRecurrence(ctx, 'recurrence.created', recurrence, { recurrence })
  return recurrence
}

/** A new schedule or start date moves the next occurrence (never into the past: no back-fill). */
export async function updateRecurrence(
  ctx: OperationContext,
  id: RecurrenceId,
  fields: RecurrenceFields,
): Promise<Recurrence> {
  const recurrence = await requireRecurrence(ctx, id)
  const changed: RecurrenceFields = {}
  if (fields.name !== undefined && fields.name !== recurrence.name) changed.name = fields.name
  if (fields.schedule !== undefined) {
    const schedule = checkSchedule(fields.schedule, '/body/schedule')
    if (JSON.stringify(schedule) !== JSON.stringify(recurrence.schedule)) changed.schedule = schedule
  }
  if (fields.startDate !== undefined && fields.startDate !== recurrence.startDate) {
    changed.startDate = fields.startDate
  }
  if (Object.keys(changed).length === 0) return recurrence
  const next: Recurrence = { ...recurrence, ...changed, updatedAt: ctx.now }
  if (!next.pausedAt && (changed.schedule || changed.startDate)) {
    next.nextOccurrence = upcoming(next, today(ctx))
  }
  await ctx.store.recurrences.update(recurrence.orgId, recurrence.id, {
    ...changed,
    nextOccurrence: next.nextOccurrence,
    updatedAt: ctx.now,
  })
  emitRecurrence(ctx, 'recurrence.updated', next, {
    recurrence: next,
    changes: changesOf(recurrence, changed),
  })
  return next
}

/** The first occurrence on or after `from` not created yet (after the last one created). */
function upcoming(recurrence: Recurrence, from: string): string | null {
  if (!recurrence.lastOccurrence) return nextOccurrence(recurrence.schedule, recurrence.startDate, from)
  const after = dayAfter(recurrence.lastOccurrence)
  return nextOccurrence(
    recurrence.schedule,
    recurrence.startDate,
    after === null || after > from ? after : from,
  )
}

export async function setRecurrencePaused(
  ctx: OperationContext,
  id: RecurrenceId,
  paused: boolean,
): Promise<Recurrence> {
  const recurrence = await requireRecurrence(ctx, id)
  if (Boolean(recurrence.pausedAt) === paused) return recurrence
  // Resuming starts from today: the occurrences that fell while paused are not created.
  const patch = paused
    ? { pausedAt: ctx.now, nextOccurrence: null, updatedAt: ctx.now }
    : { pausedAt: null, nextOccurrence: upcoming(recurrence, today(ctx)), updatedAt: ctx.now }
  await ctx.store.recurrences.update(recurrence.orgId, recurrence.id, patch)
  const next = { ...recurrence, ...patch }
  emitRecurrence(ctx, paused ? 'recurrence.paused' : 'recurrence.resumed', next, { recurrence: next })
  return next
}

export async function deleteRecurrence(ctx: OperationContext, id: RecurrenceId): Promise<void> {
  const recurrence = await requireRecurrence(ctx, id)
  await ctx.store.recurrences.delete(recurrence.orgId, recurrence.id)
  emitRecurrence(ctx, 'recurrence.deleted', recurrence, { id: recurrence.id, name: recurrence.name })
}

export async function listOccurrences(
  ctx: OperationContext,
  id: RecurrenceId,
  query: { cursor?: string; limit?: number },
): Promise<Page<Occurrence>> {
  const recurrence = await requireRecurrence(ctx, id)
  const page = await readPage(ctx, {
    scope: ['recurrences.occurrences', recurrence.id],
    query,
    sort: 'date',
    direction: 'desc',
    keyOf: (o: Occurrence & { id: string }) => o.date,
    fetch: async (p) =>
      (await ctx.store.recurrences.occurrences(recurrence.orgId, recurrence.id, p)).map((o) => ({
        ...o,
        id: o.date,
      })),
  })
  return { data: page.data.map(({ id: _id, ...o }) => o), nextCursor: page.nextCursor }
}

/** Most occurrences one scheduler pass creates for one recurrence (a long outage catches up over passes). */
const CATCH_UP_MAX = 31

/**
 * Creates the recurrence's due occurrences up to `day`, as its creator, in the caller's (the
 * system's) transaction. The lock makes schedulers take turns on one recurrence; the unique
 * (recurrence, date) key makes each occurrence's task be created once even without it. When the
 * creator can no longer create the task (left, lost access, the team or template is gone), the
 * occurrence is recorded without a task and the recurrence pauses.
 */
export async function runRecurrence(
  ctx: OperationContext,
  orgId: OrgId,
  id: RecurrenceId,
  day: string,
): Promise<number> {
  await ctx.store.locks.acquire(`recurrence:${id}`)
  const recurrence = await ctx.store.recurrences.get(orgId, id, UNSCOPED)
  if (!recurrence || recurrence.pausedAt || !recurrence.nextOccurrence) return 0
  let date: string | null = recurrence.nextOccurrence
  let last = recurrence.lastOccurrence
  let created = 0
  let failure: string | null = null
  const creator = await creatorOf(ctx, orgId, recurrence.creatorId)
  for (let n = 0; date !== null && date <= day && n < CATCH_UP_MAX && !failure; n++) {
    if (await ctx.store.recurrences.claimOccurrence(orgId, recurrence.id, date, ctx.now)) {
      try {
        if (!creator)
          throw new ProblemError('not_found', 'Its creator is no longer a member of the workspace.')
        const as = ctx.within(ctx.org!, creator)
        const template = await requireTemplate(as, recurrence.templateId)
        const task = await taskFromTemplate(as, template, recurrence.teamId, { startDate: date })
        await ctx.store.recurrences.setOccurrenceTask(orgId, recurrence.id, date, task.id)
        ctx.emit({
          kind: 'recurrence.occurred',
          resourceType: 'recurrence',
          resourceId: recurrence.id,
          teamId: recurrence.teamId,
          data: { recurrenceId: recurrence.id, date, taskId: task.id },
        })
        created++
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        failure = error.message
      }
    }
    last = date
    date = nextOccurrence(recurrence.schedule, recurrence.startDate, dayAfter(date))
  }
  const patch = failure
    ? { lastOccurrence: last, nextOccurrence: null, pausedAt: ctx.now, updatedAt: ctx.now }
    : { lastOccurrence: last, nextOccurrence: date, updatedAt: ctx.now }
  await ctx.store.recurrences.update(orgId, recurrence.id, patch)
  if (failure) {
    const next = { ...recurrence, ...patch }
    emitRecurrence(ctx, 'recurrence.paused', next, { recurrence: next, reason: failure })
  }
  return created
}

/** The creator as an Actor while an active member or agent; null otherwise. */
async function creatorOf(ctx: OperationContext, orgId: OrgId, creatorId: string): Promise<Actor | null> {
  if (isId('MemberId', creatorId)) {
    const m = await ctx.store.members.get(orgId, creatorId)
    return m?.status === 'active'
      ? { id: m.id, kind: 'person', orgId, role: m.role, userId: m.userId, name: m.name }
      : null
  }
  if (isId('AgentId', creatorId)) {
    const a = await ctx.store.agents.get(orgId, creatorId)
    return a?.status === 'active'
      ? { id: a.id, kind: 'agent', orgId, role: null, userId: null, name: a.name }
      : null
  }
  return null
}

export function emitRecurrence(
  ctx: OperationContext,
  kind: `recurrence.${string}`,
  recurrence: Recurrence,
  data: Record<string, unknown>,
): void {
  ctx.emit({ kind, resourceType: 'recurrence', resourceId: recurrence.id, teamId: recurrence.teamId, data })
}
