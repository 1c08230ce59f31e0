import type { TSchema } from '@sinclair/typebox'
import { Invitation } from '../access/schemas.ts'
import { recordData } from '../kernel/event-data.ts'

/** The `data` of the event a person's own invitation answer files in the inviting workspace (invitations/invitations.ts). */
export const ME_EVENT_DATA: Record<string, TSchema> = {
  'invitation.declined': recordData('invitation', Invitation),
}
