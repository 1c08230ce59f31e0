import type { MemberId, OrgId, UserId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Member, Org } from './schemas.ts'

export interface OrgRepo {
  /** Also creates the org's event counter, so the first event gets sequence 1. */
  insert(org: Org): Promise<void>
  get(id: OrgId): Promise<Org | null>
  slugTaken(slug: string): Promise<boolean>
  update(id: OrgId, patch: Partial<Pick<Org, 'name' | 'slug' | 'updatedAt' | 'archivedAt'>>): Promise<void>
  /** Orgs in which the user is an active member, by id. */
  listForUser(userId: UserId, page: PageRequest<'id'>): Promise<Org[]>
}

export type MemberRecord = Omit<Member, 'name' | 'email'>

export interface MemberRepo {
  insert(member: MemberRecord): Promise<void>
  get(orgId: OrgId, id: MemberId): Promise<Member | null>
  /** The user's membership in the org, whatever its status. */
  findByUser(orgId: OrgId, userId: UserId): Promise<Member | null>
  /** Without a status filter, removed members are left out. */
  list(orgId: OrgId, filter: { status?: Member['status'] }, page: PageRequest<'id'>): Promise<Member[]>
  update(
    orgId: OrgId,
    id: MemberId,
    patch: Partial<Pick<MemberRecord, 'role' | 'status' | 'updatedAt'>>,
  ): Promise<void>
  /** Active owners of the org, counted inside the transaction (the last one cannot leave). */
  countOwners(orgId: OrgId): Promise<number>
}

declare module '../kernel/storage.ts' {
  interface Store {
    orgs: OrgRepo
    members: MemberRepo
  }
}
