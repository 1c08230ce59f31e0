import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

/**
 * What a document can belong to. Teams and projects now; programs and initiatives add their type
 * here and an entry in `HOLDERS` (holders.ts) and in the storage's visibility predicates.
 */
export const DOCUMENT_HOLDER_TYPES = ['team', 'project'] as const
export type DocumentHolderType = (typeof DOCUMENT_HOLDER_TYPES)[number]
export const DocumentHolderTypeSchema = StringEnum(DOCUMENT_HOLDER_TYPES, {
  $id: 'DocumentHolderType',
  description: 'What the document belongs to: a team or a project.',
})

/** The most characters a document's content holds (well under the 1 MiB request limit in UTF-8). */
export const DOCUMENT_CONTENT_MAX = 100_000

/** 100000 → '100,000', as `toLocaleString('en')` writes it. */
function groupThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',')
}

export const DocumentTitle = Name('The title.', 255)
export const DocumentContent = Type.String({
  maxLength: DOCUMENT_CONTENT_MAX,
  // Not toLocaleString: its first call loads ICU's locale data, 20 to 60 ms of every start.
  description: `Markdown, at most ${groupThousands(DOCUMENT_CONTENT_MAX)} characters; may be empty.`,
})
export const DocumentIcon = Nullable(
  Type.String({ minLength: 1, maxLength: 64 }),
  'An emoji or an icon name.',
)

export const Document = Type.Object(
  {
    id: IdSchema('DocumentId'),
    orgId: IdSchema('OrgId'),
    holderType: DocumentHolderTypeSchema,
    holderId: Type.String({
      pattern: '^(team|proj)_[0-9A-HJKMNP-TV-Z]{26}$',
      description: 'The id of the holder (a TeamId or a ProjectId).',
    }),
    title: DocumentTitle,
    content: DocumentContent,
    icon: DocumentIcon,
    version: Type.Integer({
      minimum: 1,
      description: 'The number of the current content version (1 at creation, +1 per content change).',
    }),
    creatorId: ActorIdSchema,
    lastEditorId: ActorIdSchema,
    createdAt: Timestamp('When the document was created.'),
    updatedAt: Timestamp('When the document last changed (edits, archive, restore).'),
    archivedAt: NullableTimestamp('When the document was archived.'),
    lockedAt: NullableTimestamp('When the document was locked against edits; null while unlocked.'),
    lockedById: Nullable(ActorIdSchema, 'Who locked it; only they, or someone with `manage`, unlock it.'),
  },
  { $id: 'Document', additionalProperties: false },
)
export type Document = Static<typeof Document>

export const DocumentVersion = Type.Object(
  {
    id: IdSchema('DocumentVersionId'),
    documentId: IdSchema('DocumentId'),
    number: Type.Integer({ minimum: 1, description: 'Its place in the document’s history, from 1.' }),
    content: DocumentContent,
    authorId: ActorIdSchema,
    restoredFromId: Nullable(
      Type.String({ pattern: '^dver_[0-9A-HJKMNP-TV-Z]{26}$' }),
      'The version this one restored, when it was made by `documents.versions.restore`.',
    ),
    createdAt: Timestamp('When this content was saved.'),
  },
  {
    $id: 'DocumentVersion',
    additionalProperties: false,
    description: 'One saved content of a document; the newest is the current content.',
  },
)
export type DocumentVersion = Static<typeof DocumentVersion>

export const DocumentSubscriber = Type.Object(
  {
    documentId: IdSchema('DocumentId'),
    actorId: ActorIdSchema,
    addedAt: Timestamp('When the actor subscribed.'),
  },
  { $id: 'DocumentSubscriber', additionalProperties: false },
)
export type DocumentSubscriber = Static<typeof DocumentSubscriber>
