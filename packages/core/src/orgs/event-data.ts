import type { TSchema } from '@sinclair/typebox'
import { changedData, maybeChangedData, recordData, sameData } from '../kernel/event-data.ts'
import { Member, Org } from './schemas.ts'

/** The `data` of org and member events, as service.ts, members.ts and access/invitations/invitations.ts emit it. */
export const ORG_EVENT_DATA: Record<string, TSchema> = {
  'org.created': recordData('org', Org),
  ...sameData(['org.updated', 'org.archived', 'org.restored'], changedData('org', Org)),
  'member.created': recordData('member', Member),
  ...sameData(['member.updated', 'member.deactivated', 'member.removed'], changedData('member', Member)),
  // Accepting an invitation reactivates a former member without `changes`.
  'member.reactivated': maybeChangedData('member', Member),
}
