import { isStorableInstant } from '../kernel/calendar.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { CycleId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { rollOver } from './rollover.ts'
import type { Cycle } from './schemas.ts'
import { lockTeamCycles, requireCycle, toCycle } from './service.ts'
import type { CycleRecord } from './storage.ts'

const DAY_MS = 86_400_000
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString()

function emitUpdated(ctx: OperationContext, before: CycleRecord, after: CycleRecord): Cycle {
  const cycle = toCycle(after, ctx.now)
  const changed = { startsAt: after.startsAt, endsAt: after.endsAt }
  if (changed.startsAt === before.startsAt) delete (changed as Partial<typeof changed>).startsAt
  if (changed.endsAt === before.endsAt) delete (changed as Partial<typeof changed>).endsAt
  ctx.emit({
    kind: 'cycle.updated',
    resourceType: 'cycle',
    resourceId: after.id,
    teamId: after.teamId,
    data: { cycle, changes: changesOf(before, changed) },
  })
  return cycle
}

/**
 * `POST …/cycles/{cycleId}/shift`: moves this cycle and every later cycle of the team by `days`.
 * A cycle that has started keeps its start (the past is not rewritten) and only its end moves;
 * a completed cycle keeps its dates, so none may be among them. Refused when a moved cycle would
 * overlap one that stays (an earlier cycle).
 */
export async function shiftCycles(ctx: OperationContext, cycleId: CycleId, days: number): Promise<Cycle[]> {
  if (days === 0) {
    throw new ProblemError('rule_violated', 'Shift by at least one day.', {
      errors: [{ pointer: '/body/days', message: 'Must not be 0' }],
    })
  }
  const cycle = await requireCycle(ctx, cycleId)
  await lockTeamCycles(ctx, cycle.orgId, cycle.teamId)
  const all = await ctx.store.cycles.ofTeam(cycle.orgId, cycle.teamId)
  const moving = all.filter((c) => c.startsAt >= cycle.startsAt)
  const done = moving.find((c) => c.completedAt)
  if (done) {
    throw new ProblemError(
      'cycle_completed',
      done.id === cycle.id
        ? 'A completed cycle keeps its dates.'
        : `Cycle ${done.number}, after this one, is completed and keeps its dates.`,
    )
  }
  // The calendar ends at 9999-12-31 and begins at year 1 (kernel/calendar.ts).
  const outside = moving.find((c) => !isStorableInstant(Date.parse(c.endsAt) + days * DAY_MS))
  if (outside) {
    throw new ProblemError(
      'rule_violated',
      `Cycle ${outside.number} would end outside the years 1 to 9999.`,
      { errors: [{ pointer: '/body/days', message: 'Moves a cycle past the end of the calendar' }] },
    )
  }
  const shifted = moving.map((c) => ({
    before: c,
    after: {
      ...c,
      startsAt: c.startsAt <= ctx.now ? c.startsAt : plusDays(c.startsAt, days),
      endsAt: plusDays(c.endsAt, days),
      updatedAt: ctx.now,
    },
  }))
  const running = shifted.find((s) => s.before.startsAt <= ctx.now)
  if (running && (running.after.endsAt <= running.after.startsAt || running.after.endsAt <= ctx.now)) {
    throw new ProblemError(
      'rule_violated',
      `Cycle ${running.before.number} has started; it would end before now. Complete it instead.`,
      { errors: [{ pointer: '/body/days', message: 'Ends the running cycle in the past' }] },
    )
  }
  const staying = all.filter((c) => c.startsAt < cycle.startsAt)
  for (const { after } of shifted) {
    const clash = staying.find((o) => o.startsAt < after.endsAt && o.endsAt > after.startsAt)
    if (clash) {
      throw new ProblemError(
        'cycle_overlap',
        `Cycle ${after.number} would overlap cycle ${clash.number} (${clash.startsAt} to ${clash.endsAt}).`,
        {
          errors: [{ pointer: '/body/days', message: `Overlaps cycle ${clash.number}` }],
          extensions: { conflictingCycleId: clash.id },
        },
      )
    }
  }
  const result: Cycle[] = []
  for (const { before, after } of shifted) {
    await ctx.store.cycles.update(after.orgId, after.id, {
      startsAt: after.startsAt,
      endsAt: after.endsAt,
      updatedAt: ctx.now,
    })
    result.push(emitUpdated(ctx, before, after))
  }
  return result
}

export interface CycleStart {
  cycle: Cycle
  completedCycleId: CycleId | null
  rolledOverTaskIds: string[]
}

/**
 * `POST …/cycles/{cycleId}/start`: the team's next upcoming cycle starts now. The cycle running now
 * ends now and is completed by the usual rollover, so its unfinished tasks move into this one.
 */
export async function startCycleNow(ctx: OperationContext, cycleId: CycleId): Promise<CycleStart> {
  const cycle = await requireCycle(ctx, cycleId)
  await lockTeamCycles(ctx, cycle.orgId, cycle.teamId)
  if (cycle.completedAt) throw new ProblemError('cycle_completed', 'The cycle is already completed.')
  if (cycle.startsAt <= ctx.now) throw new ProblemError('conflict', 'The cycle has started already.')
  const all = await ctx.store.cycles.ofTeam(cycle.orgId, cycle.teamId)
  const earlier = all.find((c) => !c.completedAt && c.startsAt > ctx.now && c.startsAt < cycle.startsAt)
  if (earlier) {
    throw new ProblemError(
      'conflict',
      `Cycle ${earlier.number} is the team's next cycle; only the next one can start now.`,
    )
  }
  const running = all.find((c) => !c.completedAt && c.startsAt <= ctx.now && c.endsAt > ctx.now)
  if (running) await ctx.store.cycles.update(cycle.orgId, running.id, { endsAt: ctx.now, updatedAt: ctx.now })
  const started = { ...cycle, startsAt: ctx.now, updatedAt: ctx.now }
  await ctx.store.cycles.update(cycle.orgId, cycle.id, { startsAt: ctx.now, updatedAt: ctx.now })
  const result = emitUpdated(ctx, cycle, started)
  // The rollover picks the next open cycle by start: the one that starts now.
  const completion = running ? await rollOver(ctx, { ...running, endsAt: ctx.now, updatedAt: ctx.now }) : null
  return {
    cycle: result,
    completedCycleId: running?.id ?? null,
    rolledOverTaskIds: completion?.rolledOverTaskIds ?? [],
  }
}

/** Archives a completed cycle (its tasks keep their `cycleId`), or restores an archived one. */
export async function setCycleArchived(
  ctx: OperationContext,
  cycleId: CycleId,
  archived: boolean,
): Promise<Cycle> {
  const cycle = await requireCycle(ctx, cycleId)
  if (Boolean(cycle.archivedAt) === archived) return cycle
  if (archived && !cycle.completedAt) {
    throw new ProblemError('conflict', 'Only a completed cycle can be archived; complete it first.')
  }
  const archivedAt = archived ? ctx.now : null
  await ctx.store.cycles.update(cycle.orgId, cycle.id, { archivedAt, updatedAt: ctx.now })
  const next = toCycle({ ...cycle, archivedAt, updatedAt: ctx.now }, ctx.now)
  ctx.emit({
    kind: archived ? 'cycle.archived' : 'cycle.restored',
    resourceType: 'cycle',
    resourceId: cycle.id,
    teamId: cycle.teamId,
    data: { cycle: next },
  })
  return next
}
