import { isStorableInstant } from '../kernel/calendar.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { OrgId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { requireTeam } from '../teams/service.ts'
import { type CycleSettings, DEFAULT_CYCLE_SETTINGS, WEEKDAYS } from './schemas.ts'
import { insertCycle, lockTeamCycles } from './service.ts'
import type { CycleRecord } from './storage.ts'

const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS
/** However far behind a team is, one pass creates at most this many cycles for it. */
const MAX_CREATED_PER_PASS = 12

export async function settingsOf(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
): Promise<CycleSettings> {
  return (await ctx.store.cycles.getSettings(orgId, teamId)) ?? { teamId, ...DEFAULT_CYCLE_SETTINGS }
}

export async function getCycleSettings(ctx: OperationContext, teamId: TeamId): Promise<CycleSettings> {
  const team = await requireTeam(ctx, teamId)
  return settingsOf(ctx, team.orgId, team.id)
}

/** Changes the cadence; turning it on (or asking for more cycles ahead) creates the upcoming cycles at once. */
export async function updateCycleSettings(
  ctx: OperationContext,
  teamId: TeamId,
  patch: Partial<Omit<CycleSettings, 'teamId' | 'updatedAt'>>,
): Promise<CycleSettings> {
  const team = await requireTeam(ctx, teamId)
  const current = await settingsOf(ctx, team.orgId, team.id)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => v !== undefined && current[k as keyof CycleSettings] !== v),
  ) as Partial<CycleSettings>
  if (Object.keys(changed).length === 0) return current
  const next: CycleSettings = { ...current, ...changed, updatedAt: ctx.now }
  await ctx.store.cycles.putSettings(team.orgId, { ...next, updatedAt: ctx.now })
  ctx.emit({
    kind: 'cycle_settings.updated',
    resourceType: 'team',
    resourceId: team.id,
    teamId: team.id,
    data: { settings: next, changes: changesOf(current, changed) },
  })
  if (!team.archivedAt) await ensureUpcomingCycles(ctx, team.orgId, team.id)
  return next
}

/**
 * Creates cycles by the team's cadence until `autoCreateCount` upcoming ones exist. Works for a
 * person's request and for the engine's maintenance pass (no actor) alike. Returns what it created.
 */
export async function ensureUpcomingCycles(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
): Promise<CycleRecord[]> {
  const settings = await settingsOf(ctx, orgId, teamId)
  if (!settings.enabled) return []
  await lockTeamCycles(ctx, orgId, teamId)
  const open = await ctx.store.cycles.openAfter(orgId, teamId, ctx.now)
  let upcoming = open.filter((c) => c.startsAt > ctx.now).length
  let last = await ctx.store.cycles.last(orgId, teamId)
  const created: CycleRecord[] = []
  while (upcoming < settings.autoCreateCount && created.length < MAX_CREATED_PER_PASS) {
    const window = nextWindow(settings, last, ctx.now)
    // The calendar ends at 9999-12-31 (kernel/calendar.ts): a team whose cycles reach it has no more.
    if (!window) break
    last = await insertCycle(ctx, orgId, teamId, { ...window, name: null, description: null })
    created.push(last)
    if (last.startsAt > ctx.now) upcoming++
  }
  return created
}

/**
 * Creates the cycle that follows `last` by the cadence (none past the end of the calendar); the
 * caller holds the team's cycle lock.
 */
export async function createNextCycle(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  settings: CycleSettings,
): Promise<CycleRecord | null> {
  const window = nextWindow(settings, await ctx.store.cycles.last(orgId, teamId), ctx.now)
  return window ? insertCycle(ctx, orgId, teamId, { ...window, name: null, description: null }) : null
}

/**
 * The window of the cycle after `last`: right after it plus the cooldown. When that window would lie
 * wholly in the past (the cadence was off for a while), the chain restarts at the first start weekday
 * from today (today included, so the new cycle may already be active). It never overlaps `last`,
 * which is the team's cycle that ends latest. Null when it would end after 9999-12-31.
 */
export function nextWindow(
  settings: Pick<CycleSettings, 'durationWeeks' | 'cooldownWeeks' | 'startWeekday'>,
  last: Pick<CycleRecord, 'endsAt'> | null,
  now: string,
): { startsAt: string; endsAt: string } | null {
  const duration = settings.durationWeeks * WEEK_MS
  let start = last ? Date.parse(last.endsAt) + settings.cooldownWeeks * WEEK_MS : null
  if (start === null || start + duration <= Date.parse(now)) {
    start = alignedStart(now, WEEKDAYS.indexOf(settings.startWeekday))
    if (last && start < Date.parse(last.endsAt)) start = Date.parse(last.endsAt)
  }
  if (!isStorableInstant(start + duration)) return null
  return { startsAt: new Date(start).toISOString(), endsAt: new Date(start + duration).toISOString() }
}

/** 00:00 UTC of the first `weekday` (0 = Sunday) on or after the day of `now`. */
function alignedStart(now: string, weekday: number): number {
  const day = new Date(now)
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())
  return midnight + ((weekday - day.getUTCDay() + 7) % 7) * DAY_MS
}
