import type { JsonColumn, Timestamp } from '../columns.ts'

/** The saved views table, as queries see it. */
export interface ViewsTables {
  savedViews: {
    orgId: string
    id: string
    ownerId: string
    teamId: string | null
    model: string
    name: string
    description: string | null
    filter: JsonColumn
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  /** `memberId` '' holds the view's default. */
  viewPreferences: {
    orgId: string
    viewId: string
    memberId: string
    preferences: JsonColumn
    updatedAt: Timestamp
  }
}
