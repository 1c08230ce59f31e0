import type { OrgId, PlanItemId, TaskId, UserId } from '../../kernel/ids.ts'
import type { PlanSource } from './schemas.ts'

/** A plan item as stored: the task by reference only, never a copy of its content. */
export interface PlanItemRecord {
  id: PlanItemId
  userId: UserId
  date: string
  position: number
  kind: 'task' | 'text'
  orgId: OrgId | null
  taskId: TaskId | null
  text: string | null
  timeStart: string | null
  timeEnd: string | null
  estimateMinutes: number | null
  source: PlanSource
  carriedFrom: string | null
  carryCount: number
  doneAt: string | null
  createdAt: string
  updatedAt: string
}

export type PlanItemPatch = Partial<
  Pick<
    PlanItemRecord,
    | 'date'
    | 'position'
    | 'text'
    | 'timeStart'
    | 'timeEnd'
    | 'estimateMinutes'
    | 'carriedFrom'
    | 'carryCount'
    | 'doneAt'
    | 'updatedAt'
  >
>

export interface PlanItemRepo {
  insert(item: PlanItemRecord): Promise<void>
  get(userId: UserId, id: PlanItemId): Promise<PlanItemRecord | null>
  /** The day's items in position order, then id (bounded by {@link PLAN_DAY_MAX}). */
  day(userId: UserId, date: string): Promise<PlanItemRecord[]>
  /** The items of the days from `from` to `to` (both included), by date, then position, then id. */
  range(userId: UserId, from: string, to: string): Promise<PlanItemRecord[]>
  /** Open items on days before `date`, oldest day first, then position (at most `limit`). */
  openBefore(userId: UserId, date: string, limit: number): Promise<PlanItemRecord[]>
  update(userId: UserId, id: PlanItemId, patch: PlanItemPatch): Promise<void>
  /** Returns false when the person had no such item. */
  delete(userId: UserId, id: PlanItemId): Promise<boolean>
}

/** Items one day holds: more than anyone plans, few enough to reorder in one request. */
export const PLAN_DAY_MAX = 200

/** Days one `me.dailyPlan.list` reads: a month view at most. */
export const PLAN_RANGE_DAYS = 31

declare module '../../kernel/storage.ts' {
  interface Store {
    planItems: PlanItemRepo
  }
}
