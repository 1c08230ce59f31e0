/**
 * Scheduled work for the cluster test to find due: one of each kind the reference server's
 * background passes do. Made through the API of an in-process server on the cluster's database
 * (one that runs no background pass), then made due by moving its times back in the database, as
 * the passes' own tests move their clock: a cycle that ended an hour ago with a task still open,
 * a task nothing touched for three days in a team that closes such tasks after one, a daily
 * recurrence (due today), a task reminder an hour late, and a task due today with an assignee.
 */
import { startServer } from '@workgraph/server'
import type pg from 'pg'

const HOUR = 3_600_000
const DAY = 24 * HOUR

export interface ScheduledWork {
  teamId: string
  cycles: { ended: string; next: string }
  /** Open in the ended cycle: rolled over to the next one. */
  carried: string
  /** Unchanged for three days: closed by the team's auto-close. */
  stale: string
  recurrence: string
  /** The task whose reminder is due. */
  reminded: string
  /** Due today, assigned: a due-date reminder to its assignee. */
  due: string
}

/** Makes the work on `databaseUrl` as `token` (the owner of `orgId`), then backdates it through `db`. */
export async function planScheduledWork(options: {
  databaseUrl: string
  baseUrl: string
  token: string
  orgId: string
  assigneeId: string
  db: pg.Client
}): Promise<ScheduledWork> {
  const { orgId, db } = options
  const server = await startServer({ databaseUrl: options.databaseUrl, baseUrl: options.baseUrl })
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await server.fetch(
        new Request(`${options.baseUrl}/v1/orgs/${orgId}${path}`, {
          method,
          headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
      const json = (await res.json()) as any
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    }
    const now = Date.now()
    const iso = (at: number) => new Date(at).toISOString()
    const teamId = (await api('POST', '/teams', { name: 'Operations', key: 'OPS' })).id
    await api('PATCH', `/teams/${teamId}/settings`, { autoCloseDays: 1 })
    const task = async (title: string, extra: object = {}) =>
      (await api('POST', '/tasks', { teamId, title, ...extra })).id as string

    const ended = (
      await api('POST', `/teams/${teamId}/cycles`, { startsAt: iso(now - 2 * DAY), endsAt: iso(now + HOUR) })
    ).id
    const next = (
      await api('POST', `/teams/${teamId}/cycles`, { startsAt: iso(now + HOUR), endsAt: iso(now + 14 * DAY) })
    ).id
    const carried = await task('Carried over', { cycleId: ended })
    const stale = await task('Nobody touched this')
    const template = await api('POST', '/templates', {
      teamId,
      kind: 'task',
      name: 'Daily check',
      task: {
        title: 'Daily check',
        description: null,
        priority: 'none',
        estimate: null,
        labelIds: [],
        dueOffsetDays: null,
      },
    })
    const recurrence = (
      await api('POST', '/recurrences', {
        teamId,
        templateId: template.id,
        name: 'Daily check',
        schedule: { frequency: 'daily' },
      })
    ).id
    const reminded = await task('Call the vendor')
    const reminder = (await api('POST', `/tasks/${reminded}/reminders`, { remindAt: iso(now + HOUR) })).id
    const due = await task('Due today', { dueDate: iso(now).slice(0, 10), assigneeId: options.assigneeId })

    // The clock moved on: the cycle ended, the stale task aged, the reminder fell due.
    await db.query('update cycles set ends_at = $1 where id = $2', [iso(now - HOUR), ended])
    await db.query('update cycles set starts_at = $1 where id = $2', [iso(now - HOUR), next])
    await db.query('update tasks set updated_at = $1 where id = $2', [iso(now - 3 * DAY), stale])
    await db.query('update task_reminders set remind_at = $1 where id = $2', [iso(now - 60_000), reminder])
    return { teamId, cycles: { ended, next }, carried, stale, recurrence, reminded, due }
  } finally {
    await server.close()
  }
}

/** The background passes the reference server logs at `LOG_LEVEL=debug`, by the name it logs. */
export const PASSES = [
  'cycle maintenance pass',
  'task automation pass',
  'scheduler pass',
  'due-date reminders pass',
  'notifier pass',
] as const

/** Every pass an instance logged: its name and its counts (`completed=1 created=0 failed=0`). */
export function passesIn(output: string): { name: string; counts: Record<string, number> }[] {
  const line = new RegExp(`^DEBUG (${PASSES.join('|')}) (.*)$`, 'gm')
  return [...output.matchAll(line)].map((m) => ({
    name: m[1]!,
    counts: Object.fromEntries(
      m[2]!.split(' ').map((pair) => {
        const [key, value] = pair.split('=')
        return [key!, Number(value)]
      }),
    ),
  }))
}
