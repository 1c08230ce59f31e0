import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { LINK_PARENT_TYPES, Link } from './schemas.ts'

const parentType = StringEnum(LINK_PARENT_TYPES)

/** The `data` of link events, as service.ts's `emitLink` writes it: always with the `parentType`. */
export const LINK_EVENT_DATA: Record<string, TSchema> = {
  'link.created': Type.Object({ parentType, link: Link }),
  'link.updated': Type.Object({ parentType, link: Link, changes: EventChanges }),
  'link.moved': Type.Object({
    parentType,
    link: Link,
    order: Type.Array(IdSchema('LinkId'), { description: "The parent's links in their new order." }),
  }),
  'link.deleted': Type.Object({
    parentType,
    id: IdSchema('LinkId'),
    parentId: Type.String({
      description: 'The TaskId, ProjectId, ProgramId or InitiativeId, per `parentType`.',
    }),
  }),
}
