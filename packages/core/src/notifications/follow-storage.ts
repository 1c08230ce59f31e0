import type { MemberId, NotificationMuteId, NotificationRuleId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { MuteRecordType, SubscriptionKind, SubscriptionTarget } from './follow-schemas.ts'

export interface SubscriptionRecord {
  id: NotificationRuleId
  orgId: OrgId
  memberId: MemberId
  targetType: SubscriptionTarget
  targetId: string
  kinds: SubscriptionKind[]
  active: boolean
  createdAt: string
  updatedAt: string
}

export interface SubscriptionRepo {
  /** Returns false, writing nothing, when the member already has a rule on this target. */
  insert(subscription: SubscriptionRecord): Promise<boolean>
  get(orgId: OrgId, memberId: MemberId, id: NotificationRuleId): Promise<SubscriptionRecord | null>
  /** The member's rules, newest first (by `createdAt`, then id). */
  list(orgId: OrgId, memberId: MemberId, page: PageRequest<'createdAt'>): Promise<SubscriptionRecord[]>
  update(
    orgId: OrgId,
    memberId: MemberId,
    id: NotificationRuleId,
    patch: Pick<SubscriptionRecord, 'kinds' | 'active' | 'updatedAt'>,
  ): Promise<void>
  delete(orgId: OrgId, memberId: MemberId, id: NotificationRuleId): Promise<boolean>
  /** Active rules, of anyone, on any of these targets: what the notifier adds recipients from. */
  onTargets(
    orgId: OrgId,
    targets: ReadonlyArray<{ type: SubscriptionTarget; id: string }>,
  ): Promise<SubscriptionRecord[]>
}

export interface MuteRecord {
  id: NotificationMuteId
  orgId: OrgId
  memberId: MemberId
  recordType: MuteRecordType
  recordId: string
  until: string | null
  createdAt: string
}

export interface MuteRepo {
  /** Creates the mute, or replaces `until` on the member's existing mute of the record; returns it. */
  upsert(mute: MuteRecord): Promise<MuteRecord>
  get(orgId: OrgId, memberId: MemberId, id: NotificationMuteId): Promise<MuteRecord | null>
  /** The member's mutes, newest first (by `createdAt`, then id). */
  list(orgId: OrgId, memberId: MemberId, page: PageRequest<'createdAt'>): Promise<MuteRecord[]>
  delete(orgId: OrgId, memberId: MemberId, id: NotificationMuteId): Promise<boolean>
  /** The member's mute of one record, expired or not. */
  find(orgId: OrgId, memberId: MemberId, recordType: string, recordId: string): Promise<MuteRecord | null>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Notification rules on containers, each readable by its member only. */
    notificationSubscriptions: SubscriptionRepo
    /** Muted records, each readable by its member only. */
    notificationMutes: MuteRepo
  }
}
