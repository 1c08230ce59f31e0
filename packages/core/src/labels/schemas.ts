import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, Timestamp } from '../kernel/schema-types.ts'
import { Color } from '../teams/schemas.ts'

export const LabelName = Name(
  'The label name, unique (ignoring case) among the active labels of its scope: the org, or one team.',
  80,
)

export const Label = Type.Object(
  {
    id: IdSchema('LabelId'),
    orgId: IdSchema('OrgId'),
    teamId: Nullable(
      IdSchema('TeamId'),
      "The team whose tasks the label applies to; null for an org label, which applies to every team's tasks.",
    ),
    parentId: Nullable(
      IdSchema('LabelId'),
      'The group the label belongs to. A task carries at most one label of a group.',
    ),
    isGroup: Type.Boolean({
      description: 'A group holds labels and is never put on a task itself.',
    }),
    name: LabelName,
    color: Color,
    description: Nullable(Type.String({ maxLength: 2000 }), 'Markdown.'),
    creatorId: ActorIdSchema,
    createdAt: Timestamp('When the label was created.'),
    updatedAt: Timestamp('When the label last changed.'),
    archivedAt: NullableTimestamp(
      'When the label was archived. Tasks keep an archived label, but it cannot be added to more.',
    ),
  },
  { $id: 'Label', additionalProperties: false },
)
export type Label = Static<typeof Label>

/** How label names compare: their sort key and uniqueness key (NFC, lowercased). */
export function labelNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase()
}
