/** What the hub bench's world and its bulk writers share: the vocabulary, the model's types, row writes. */
import type { MemberId, OrgId, Principal, TeamId } from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'

export const WORDS = [
  'login',
  'billing',
  'export',
  'rocket',
  'launch',
  'parser',
  'mobile',
  'invoice',
  'orbit',
  'cache',
]
/** A word in few records, so a search for it can be read to the end and compared whole. */
export const RARE_WORD = 'zeppelin'
export const PERSON_NAME = 'Hub Person'
export const HOUR = 3_600_000

/** A task as the model needs it. */
export interface SeedTask {
  orgId: OrgId
  id: string
  title: string
  description: string
  assigned: boolean
  dueDate: string | null
  completedAt: string | null
  archived: boolean
  inCycle: boolean
  blockerIds: string[]
}
export interface SeedComment {
  orgId: OrgId
  id: string
  body: string
}
export interface SeedOrg {
  orgId: OrgId
  teamId: TeamId
  /** The person's member there. */
  memberId: MemberId
  tasks: SeedTask[]
  comments: SeedComment[]
}
export interface HubWorld {
  person: Principal
  /** The day every due date is relative to (UTC, the day of seeding). */
  today: string
  orgs: SeedOrg[]
  /** The daily plan's task items, in order: `orgId/taskId`. */
  plan: string[]
}

export type Db = RunningServer['storage']['db']
export type Row = Record<string, unknown>

export const shiftDay = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00.000Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

export const iso = (ms: number) => new Date(ms).toISOString()

/**
 * One workspace's bulk rows, by table, as the families add them (tasks.ts, notifications.ts,
 * comments.ts), and every event they would have emitted with the time it happened.
 */
export interface Bulk {
  tasks: Row[]
  seedTasks: SeedTask[]
  history: Row[]
  subscribers: Row[]
  dependencies: Row[]
  comments: Row[]
  seedComments: SeedComment[]
  notifications: Row[]
  events: Array<{ at: number; event: Row }>
}

/** What every family needs of the workspace it writes. */
export interface BulkContext {
  o: number
  orgId: OrgId
  teamId: TeamId
  cycleId: string
  ownerMemberId: string
  memberId: MemberId
  count: number
  now: number
  today: string
  /** When task 0 was created: task n a minute after task n-1. */
  start: number
}

/** Rows per statement: under SQLite's 32,766 bound parameters (Postgres allows 65,535). */
export async function insertRows(db: Db, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return
  const per = Math.floor(30_000 / Object.keys(rows[0]!).length)
  for (let i = 0; i < rows.length; i += per)
    await db
      .insertInto(table as never)
      .values(rows.slice(i, i + per) as never)
      .execute()
}
