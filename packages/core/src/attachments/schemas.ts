import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { FILE_NAME_MAX } from './file-name.ts'

/** What a file can be attached to; each is a capability target its own group resolves. */
export const ATTACHMENT_RECORD_TYPES = ['task', 'comment', 'project', 'document'] as const
export type AttachmentRecordType = (typeof ATTACHMENT_RECORD_TYPES)[number]
export const AttachmentRecordTypeSchema = StringEnum(ATTACHMENT_RECORD_TYPES, {
  $id: 'AttachmentRecordType',
  description: 'What the file is attached to.',
})

export const Attachment = Type.Object(
  {
    id: IdSchema('AttachmentId'),
    orgId: IdSchema('OrgId'),
    recordType: AttachmentRecordTypeSchema,
    recordId: Type.String({
      description: 'The id of the record (a TaskId, CommentId, ProjectId or DocumentId).',
    }),
    fileName: Type.String({
      minLength: 1,
      maxLength: FILE_NAME_MAX,
      description:
        'The name given at upload, made safe: no path, no control or direction-changing characters, at most ' +
        `${FILE_NAME_MAX} characters.`,
    }),
    contentType: Type.String({
      description:
        'Sniffed from the bytes, never taken from the client: a known binary format, `text/plain; charset=utf-8` ' +
        'for UTF-8 text (HTML and other markup included), else `application/octet-stream`.',
    }),
    size: Type.Integer({ minimum: 0, description: 'Bytes.' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the bytes, hex.' }),
    uploaderId: ActorIdSchema,
    createdAt: Timestamp('When it was uploaded.'),
  },
  {
    $id: 'Attachment',
    additionalProperties: false,
    description:
      "A file attached to a task, comment, project or document; its bytes are in the server's blob store.",
  },
)
export type Attachment = Static<typeof Attachment>
