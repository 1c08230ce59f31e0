import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { LINK_PARENT_TYPES, ResourceLink } from './schemas.ts'

const parentType = StringEnum(LINK_PARENT_TYPES)

/** The `data` of link events, as service.ts's `emitLink` writes it: always with the `parentType`. */
export const LINK_EVENT_DATA: Record<string, TSchema> = {
  'link.created': Type.Object({ parentType, link: ResourceLink }),
  'link.updated': Type.Object({ parentType, link: ResourceLink, changes: EventChanges }),
  'link.deleted': Type.Object({
    parentType,
    id: IdSchema('ResourceLinkId'),
    parentId: Type.String({ description: 'The ProjectId, ProgramId or InitiativeId, per `parentType`.' }),
  }),
}
