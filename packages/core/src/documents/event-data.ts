import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Document, DocumentHolderTypeSchema } from './schemas.ts'

/** Events leave the content out (service.ts `withoutContent`): a content change shows as `version` numbers. */
const DocumentWithoutContent = Type.Omit(Document, ['content'], {
  $id: 'EventDocument',
  additionalProperties: false,
  description: 'A document as its events carry it: every field but the content.',
})

const updatedData = Type.Object({ document: DocumentWithoutContent, changes: EventChanges })

/** The `data` of document events, as service.ts, locks.ts and subscribers.ts emit it. */
export const DOCUMENT_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(
    ['document.created', 'document.archived', 'document.restored'],
    recordData('document', DocumentWithoutContent),
  ),
  'document.updated': updatedData,
  'document.version_restored': Type.Composite([
    updatedData,
    Type.Object({
      restoredFromId: IdSchema('DocumentVersionId'),
      restoredFromNumber: Type.Integer({ minimum: 1, description: 'The number of the version restored.' }),
    }),
  ]),
  'document.deleted': Type.Object({
    id: IdSchema('DocumentId'),
    holderType: DocumentHolderTypeSchema,
    holderId: Type.String({ description: 'The TeamId or ProjectId, per `holderType`.' }),
    title: Type.String(),
  }),
  'document.locked': Type.Object({
    id: IdSchema('DocumentId'),
    lockedAt: Type.String({ format: 'date-time' }),
    lockedById: Type.String({ description: 'The member or agent who locked it.' }),
  }),
  'document.unlocked': Type.Object({
    id: IdSchema('DocumentId'),
    lockedById: Type.String({ description: 'The member or agent whose lock went.' }),
  }),
  ...sameData(
    ['document_subscriber.created', 'document_subscriber.deleted'],
    Type.Object({
      documentId: IdSchema('DocumentId'),
      actorId: Type.String({ description: 'The member or agent subscribed or unsubscribed.' }),
    }),
  ),
}
