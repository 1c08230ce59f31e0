import type { Timestamp } from '../columns.ts'

/** The links tables, as queries see them. */
export interface LinksTables {
  resourceLinks: {
    orgId: string
    id: string
    parentType: string
    parentId: string
    url: string
    title: string | null
    position: number
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}
