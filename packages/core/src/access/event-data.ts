import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Grant, Invitation, TeamMember } from './schemas.ts'

/** The `data` of invitation, team membership and grant events, as invitations/invitations.ts and service.ts emit it. */
export const ACCESS_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(
    ['invitation.created', 'invitation.resent', 'invitation.revoked'],
    recordData('invitation', Invitation),
  ),
  'team.member_added': recordData('membership', TeamMember),
  'team.member_removed': Type.Object({
    teamId: IdSchema('TeamId'),
    actorId: Type.String({ description: 'The member or agent who left the team.' }),
  }),
  ...sameData(['grant.created', 'grant.deleted'], recordData('grant', Grant)),
  'grant.updated': changedData('grant', Grant),
}
