import { WEEKDAYS, type Weekday } from '../cycles/schemas.ts'
import type { Project, ProjectStatusCategory, UpdateCadence } from './schemas.ts'
import type { ProjectRow } from './storage.ts'

const DAY = 86_400_000
const PERIOD_DAYS: Record<Exclude<UpdateCadence, 'none'>, number> = { weekly: 7, biweekly: 14 }

/**
 * The day the next status update is due, as `YYYY-MM-DDT00:00:00.000Z`, or null when none is
 * expected. Counting from the day of the latest update (or, before the first, the day the project
 * was created), it is the first `weekday` at least `period - 6` days later: weekly, the first
 * `weekday` after that day; every two weeks, the first one at least 8 days after it. So posting an
 * update always moves the due date to a later occurrence of the weekday, and an update posted early
 * (a day before the weekday) covers that weekday's update for weekly cadences.
 */
export function nextUpdateDue(
  cadence: UpdateCadence,
  weekday: Weekday,
  since: string,
  category: ProjectStatusCategory,
  archived: boolean,
): string | null {
  if (cadence === 'none' || archived || category === 'completed' || category === 'canceled') return null
  const start = Date.parse(`${since.slice(0, 10)}T00:00:00.000Z`) + (PERIOD_DAYS[cadence] - 6) * DAY
  const shift = (WEEKDAYS.indexOf(weekday) - new Date(start).getUTCDay() + 7) % 7
  return new Date(start + shift * DAY).toISOString()
}

/** The project with its cadence fields computed for `now`. */
export function withCadence(project: ProjectRow, now: string): Project {
  const nextUpdateDueAt = nextUpdateDue(
    project.updateCadence,
    project.updateWeekday,
    project.lastUpdateAt ?? project.createdAt,
    project.statusCategory,
    project.archivedAt !== null,
  )
  return { ...project, nextUpdateDueAt, updateDue: nextUpdateDueAt !== null && nextUpdateDueAt <= now }
}
