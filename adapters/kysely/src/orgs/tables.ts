import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The orgs tables, as queries see them. */
export interface OrgsTables {
  orgs: {
    id: string
    name: string
    slug: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  members: {
    orgId: string
    id: string
    userId: string
    kind: string
    role: string
    status: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}
