import type { TSchema } from '@sinclair/typebox'
import { sameData } from '../kernel/event-data.ts'
import { Attachment } from './schemas.ts'

/** The `data` of attachment events (service.ts): the attachment itself. */
export const ATTACHMENT_EVENT_DATA: Record<string, TSchema> = sameData(
  ['attachment.created', 'attachment.deleted'],
  Attachment,
)
