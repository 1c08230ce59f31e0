import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { LinkTitle, LinkUrl } from '../tasks/relations/schemas.ts'

/** What a URL link can hang off: one family of links for all of them (`<plural>.links.*`, `links.*`). */
export const LINK_PARENT_TYPES = ['task', 'project', 'program', 'initiative'] as const
export type LinkParentType = (typeof LINK_PARENT_TYPES)[number]

/** Where a link sits in its parent's list: smaller first. Set by `links.move`, never written directly. */
export const LinkPosition = Type.Number({
  description: 'Its place among the parent’s links, smaller first; new links go last, `links.move` reorders.',
})

export const Link = Type.Object(
  {
    id: IdSchema('LinkId'),
    orgId: IdSchema('OrgId'),
    parentType: StringEnum(LINK_PARENT_TYPES, { description: 'The kind of record the link belongs to.' }),
    parentId: Type.String({ description: 'The task, project, program or initiative, per `parentType`.' }),
    url: LinkUrl,
    title: LinkTitle,
    position: LinkPosition,
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the link was added.'),
    updatedAt: Timestamp('When the link last changed.'),
  },
  {
    $id: 'Link',
    additionalProperties: false,
    description:
      'A URL link of a task, a project, a program or an initiative (a spec, a dashboard, a channel). Items of ' +
      'other tools that a connector reads are linked items (`LinkedItem`), not links.',
  },
)
export type Link = Static<typeof Link>
