import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { LinkTitle, LinkUrl } from '../tasks/depth-schemas.ts'

/** The containers a URL resource can hang off. Tasks keep their own links (`tasks.links.*`). */
export const LINK_PARENT_TYPES = ['project', 'program', 'initiative'] as const
export type LinkParentType = (typeof LINK_PARENT_TYPES)[number]

/** Where a link sits in its container's list: smaller first; any finite number, so a move writes one row. */
export const LinkPosition = Type.Number({
  minimum: -1e9,
  maximum: 1e9,
  description: 'Its place among the container’s links, smaller first. New links go last.',
})

export const ResourceLink = Type.Object(
  {
    id: IdSchema('ResourceLinkId'),
    orgId: IdSchema('OrgId'),
    parentType: StringEnum(LINK_PARENT_TYPES, { description: 'The kind of container the link belongs to.' }),
    parentId: Type.String({ description: 'The project, program or initiative.' }),
    url: LinkUrl,
    title: LinkTitle,
    position: LinkPosition,
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the link was added.'),
    updatedAt: Timestamp('When the link last changed.'),
  },
  {
    $id: 'ResourceLink',
    additionalProperties: false,
    description: 'A URL resource of a project, a program or an initiative (a spec, a dashboard, a channel).',
  },
)
export type ResourceLink = Static<typeof ResourceLink>
