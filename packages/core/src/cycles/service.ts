import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type CycleId, newId, type OrgId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { summarizeProgress } from '../tasks/progress.ts'
import { archivedFilter, requireTeam } from '../teams/service.ts'
import type { Cycle, CycleProgress, CycleStatus } from './schemas.ts'
import type { CycleRecord } from './storage.ts'

/** The status a cycle has at `now`: derived from its dates, never stored. */
export function cycleStatus(cycle: CycleRecord, now: string): CycleStatus {
  if (cycle.completedAt) return 'completed'
  if (now < cycle.startsAt) return 'upcoming'
  return now < cycle.endsAt ? 'active' : 'past'
}

export function toCycle(record: CycleRecord, now: string): Cycle {
  return { ...record, status: cycleStatus(record, now) }
}

/** Cycles of one team are created, moved and completed one writer at a time (overlap checks, numbers). */
export async function lockTeamCycles(ctx: OperationContext, orgId: OrgId, teamId: TeamId): Promise<void> {
  await ctx.store.locks.acquire(`cycles:${orgId}:${teamId}`)
}

export async function requireCycle(ctx: OperationContext, cycleId: CycleId): Promise<Cycle> {
  const record = await ctx.store.cycles.get(currentOrg(ctx).id, cycleId, await ctx.scope())
  if (!record) throw notFound('Cycle')
  return toCycle(record, ctx.now)
}

export async function listCycles(
  ctx: OperationContext,
  teamId: TeamId,
  query: { cursor?: string; limit?: number; status?: CycleStatus; archived?: 'exclude' | 'only' | 'include' },
): Promise<Page<Cycle>> {
  const orgId = currentOrg(ctx).id
  await requireTeam(ctx, teamId)
  const status = query.status ? { value: query.status, now: ctx.now } : undefined
  const archived = archivedFilter(query.archived)
  return readPage(ctx, {
    // The clock is part of a status filter, but not of the cursor: a later page uses its own `now`.
    scope: ['cycles.list', orgId, teamId, query.status ?? null, archived],
    query,
    sort: 'startsAt',
    direction: 'asc',
    keyOf: (c: Cycle) => c.startsAt,
    fetch: async (page) =>
      (
        await ctx.store.cycles.list(
          orgId,
          { teamId, archived, ...(status ? { status } : {}) },
          page,
          await ctx.scope(),
        )
      ).map((r) => toCycle(r, ctx.now)),
  })
}

interface CycleFields {
  name?: string | null
  description?: string | null
  startsAt?: string
  endsAt?: string
}

export async function createCycle(
  ctx: OperationContext,
  teamId: TeamId,
  input: CycleFields & { startsAt: string; endsAt: string },
): Promise<Cycle> {
  const team = await requireTeam(ctx, teamId)
  if (team.archivedAt)
    throw new ProblemError('archived', 'The team is archived; restore it before planning cycles.')
  const window = checkedWindow(input.startsAt, input.endsAt)
  await lockTeamCycles(ctx, team.orgId, team.id)
  await assertNoOverlap(ctx, team.orgId, team.id, window)
  const record = await insertCycle(ctx, team.orgId, team.id, {
    ...window,
    name: input.name ?? null,
    description: input.description ?? null,
  })
  return toCycle(record, ctx.now)
}

/** Inserts a cycle with the team's next number and emits `cycle.created`; the caller holds the team's cycle lock. */
export async function insertCycle(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  fields: Pick<CycleRecord, 'startsAt' | 'endsAt' | 'name' | 'description'>,
): Promise<CycleRecord> {
  const record: CycleRecord = {
    id: newId('CycleId'),
    orgId,
    teamId,
    number: await ctx.store.cycles.nextNumber(orgId, teamId),
    ...fields,
    completedAt: null,
    archivedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.cycles.insert(record)
  ctx.emit(
    {
      kind: 'cycle.created',
      resourceType: 'cycle',
      resourceId: record.id,
      teamId,
      data: { cycle: toCycle(record, ctx.now) },
    },
    orgId,
  )
  return record
}

export async function updateCycle(
  ctx: OperationContext,
  cycleId: CycleId,
  patch: CycleFields,
): Promise<Cycle> {
  const cycle = await requireCycle(ctx, cycleId)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => v !== undefined && cycle[k as keyof Cycle] !== v),
  ) as CycleFields
  if (changed.startsAt || changed.endsAt) {
    if (cycle.completedAt)
      throw new ProblemError('cycle_completed', 'A completed cycle keeps its dates.', {
        errors: [
          { pointer: changed.startsAt ? '/body/startsAt' : '/body/endsAt', message: 'Cycle is completed' },
        ],
      })
    const window = checkedWindow(changed.startsAt ?? cycle.startsAt, changed.endsAt ?? cycle.endsAt)
    await lockTeamCycles(ctx, cycle.orgId, cycle.teamId)
    await assertNoOverlap(ctx, cycle.orgId, cycle.teamId, window, cycle.id)
    Object.assign(changed, window)
    for (const key of ['startsAt', 'endsAt'] as const) if (changed[key] === cycle[key]) delete changed[key]
  }
  if (Object.keys(changed).length === 0) return cycle
  await ctx.store.cycles.update(cycle.orgId, cycle.id, { ...changed, updatedAt: ctx.now })
  const next = toCycle({ ...cycle, ...changed, updatedAt: ctx.now }, ctx.now)
  ctx.emit({
    kind: 'cycle.updated',
    resourceType: 'cycle',
    resourceId: cycle.id,
    teamId: cycle.teamId,
    data: { cycle: next, changes: changesOf(cycle, changed) },
  })
  return next
}

/** Deletes a cycle; its tasks stay, in no cycle. */
export async function deleteCycle(ctx: OperationContext, cycleId: CycleId): Promise<void> {
  const cycle = await requireCycle(ctx, cycleId)
  await ctx.store.cycles.delete(cycle.orgId, cycle.id)
  ctx.emit({
    kind: 'cycle.deleted',
    resourceType: 'cycle',
    resourceId: cycle.id,
    teamId: cycle.teamId,
    data: { id: cycle.id, teamId: cycle.teamId, number: cycle.number },
  })
}

export async function cycleProgress(ctx: OperationContext, cycleId: CycleId): Promise<CycleProgress> {
  const cycle = await requireCycle(ctx, cycleId)
  const tallies = await ctx.store.cycles.progress(cycle.orgId, cycle.id)
  return { cycleId: cycle.id, ...summarizeProgress(tallies) }
}

/** Puts tasks in the cycle: each is an update of the task (`contribute` on it), all or nothing. */
function checkedWindow(startsAt: string, endsAt: string): { startsAt: string; endsAt: string } {
  const window = { startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString() }
  if (window.endsAt <= window.startsAt) {
    throw new ProblemError('rule_violated', '`endsAt` must be after `startsAt`.', {
      errors: [{ pointer: '/body/endsAt', message: 'Must be after startsAt' }],
    })
  }
  return window
}

async function assertNoOverlap(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  window: { startsAt: string; endsAt: string },
  exceptId?: CycleId,
): Promise<void> {
  const [clash] = await ctx.store.cycles.overlapping(orgId, teamId, window, exceptId)
  if (clash) {
    throw new ProblemError(
      'cycle_overlap',
      `The dates overlap cycle ${clash.number} (${clash.startsAt} to ${clash.endsAt}) of the team.`,
      {
        errors: [{ pointer: '/body/startsAt', message: `Overlaps cycle ${clash.number}` }],
        extensions: { conflictingCycleId: clash.id },
      },
    )
  }
}
