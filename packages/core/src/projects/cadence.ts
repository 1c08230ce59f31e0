import { WEEKDAYS, type Weekday } from '../cycles/schemas.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Project, ProjectStatusCategory, UpdateCadence } from './schemas.ts'
import type { ProjectRow } from './storage.ts'
import { type CadenceDefault, readUpdateSettings } from './update-settings.ts'

const DAY = 86_400_000
const HOUR = 3_600_000
const WEEKS: Record<'weekly' | 'biweekly', number> = { weekly: 1, biweekly: 2 }

/**
 * When the next update of a cadence of `everyWeeks` weeks is due: counting from the day of the
 * latest update (or, before the first, the day the parent was created), the first `weekday` at
 * least `7 × everyWeeks − 6` days later, at `hour` UTC. Weekly, that is the first `weekday` after
 * that day; every two weeks, the first one at least 8 days after it. So posting an update always
 * moves the due date to a later occurrence of the weekday, and an update posted early (a day before
 * the weekday) covers that weekday's update for weekly cadences. Null when `everyWeeks` is 0.
 */
export function nextDueAt(everyWeeks: number, weekday: Weekday, hour: number, since: string): string | null {
  if (everyWeeks <= 0) return null
  const start = Date.parse(`${since.slice(0, 10)}T00:00:00.000Z`) + (7 * everyWeeks - 6) * DAY
  const shift = (WEEKDAYS.indexOf(weekday) - new Date(start).getUTCDay() + 7) % 7
  return new Date(start + shift * DAY + hour * HOUR).toISOString()
}

/**
 * The day a project's own cadence expects its next update (00:00 UTC), or null when none is
 * expected; see {@link nextDueAt}. `orgDefault` is resolved by {@link withCadence}, and counts as
 * none here.
 */
export function nextUpdateDue(
  cadence: UpdateCadence,
  weekday: Weekday,
  since: string,
  category: ProjectStatusCategory,
  archived: boolean,
): string | null {
  if (cadence === 'none' || cadence === 'orgDefault') return null
  if (archived || category === 'completed' || category === 'canceled') return null
  return nextDueAt(WEEKS[cadence], weekday, 0, since)
}

/** The project with its cadence fields computed for `now`; `orgDefault` follows the org's project default. */
export function withCadence(project: ProjectRow, now: string, orgDefault: CadenceDefault): Project {
  const since = project.lastUpdateAt ?? project.createdAt
  const closed =
    project.archivedAt !== null ||
    project.statusCategory === 'completed' ||
    project.statusCategory === 'canceled'
  const nextUpdateDueAt =
    project.updateCadence === 'orgDefault'
      ? closed
        ? null
        : nextDueAt(orgDefault.everyWeeks, orgDefault.weekday, orgDefault.hour, since)
      : nextUpdateDue(project.updateCadence, project.updateWeekday, since, project.statusCategory, closed)
  return { ...project, nextUpdateDueAt, updateDue: nextUpdateDueAt !== null && nextUpdateDueAt <= now }
}

/** The org's default cadence for projects, for {@link withCadence}. */
export async function projectCadenceDefault(ctx: OperationContext): Promise<CadenceDefault> {
  return (await readUpdateSettings(ctx)).project
}
