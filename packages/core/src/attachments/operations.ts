import { type TProperties, Type } from '@sinclair/typebox'
import type { AttachmentId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { attachmentExamples } from './examples.ts'
import { Attachment, AttachmentRecordTypeSchema } from './schemas.ts'
import {
  blobStoreOf,
  createAttachment,
  deleteAttachment,
  getAttachment,
  listAttachments,
  maxUploadBytes,
  type ReceivedFile,
  receiveFile,
  requireAttachment,
} from './service.ts'
import type { StoredAttachment } from './storage.ts'

const TAG = 'Attachments'
const collectionPath = '/v1/orgs/{orgId}/attachments'
const attachmentPath = `${collectionPath}/{attachmentId}`
const contentPath = `${attachmentPath}/content`
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const aid = (p: Record<string, string>) => p.attachmentId as AttachmentId

const record = {
  recordType: AttachmentRecordTypeSchema,
  recordId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The id of the task, comment, project or document.',
  }),
}

export const attachmentOperations: AnyOperation[] = [
  declareOperation({
    id: 'attachments.create',
    method: 'POST',
    path: collectionPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Upload an attachment',
    requires: '`contribute` on the task, comment, project or document named by `recordType` and `recordId`',
    description:
      'Attaches a file to a task, comment, project or document (`contribute` on it). The request body is the ' +
      'file itself, streamed (any `Content-Type`; the type is sniffed from the bytes, never taken from the ' +
      'client). Its name comes from `fileName`, made safe. Past the configured limit (default 25 MiB) the upload ' +
      'stops with 413 `payload_too_large` and nothing is kept.',
    params: obj(paramsOf(collectionPath)),
    query: obj({
      ...record,
      fileName: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 1024,
          description: 'The file name; paths, control characters and quotes are removed (default `file`).',
        }),
      ),
    }),
    streamBody: {
      description: 'The bytes of the file.',
      maxBytes: maxUploadBytes,
    },
    response: Attachment,
    status: 201,
    capability: 'contribute',
    target: ({ query }) => ({ type: query.recordType, id: query.recordId }),
    errors: ['not_found'],
    location: 'attachments.get',
    examples: attachmentExamples.create,
    // The bytes go to the blob store after the access checks and before the transaction that records them.
    outbound: {
      prepare: async (_ctx, input) => input.body,
      send: (content: AsyncIterable<Uint8Array>, config) => receiveFile(content, config),
    },
    run: (ctx, { query, outbound }) => createAttachment(ctx, query, outbound as ReceivedFile),
  }),
  declareOperation({
    id: 'attachments.list',
    method: 'GET',
    path: collectionPath,
    tag: TAG,
    scope: 'work:read',
    summary: "List a record's attachments",
    description:
      'The files on one task, comment, project or document, in upload order. A record you cannot view is a 404.',
    params: obj(paramsOf(collectionPath)),
    query: obj({ ...record, ...PageQuery }),
    response: PageOf(Attachment, 'Attachment'),
    status: 200,
    errors: ['not_found'],
    examples: attachmentExamples.list,
    run: (ctx, { query }) => listAttachments(ctx, query),
  }),
  declareOperation({
    id: 'attachments.get',
    method: 'GET',
    path: attachmentPath,
    tag: TAG,
    scope: 'work:read',
    summary: 'Get an attachment',
    description: "The file's metadata; `attachments.download` streams its bytes. Needs `view` on its record.",
    params: obj(paramsOf(attachmentPath)),
    response: Attachment,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: attachmentExamples.get,
    run: (ctx, { params }) => getAttachment(ctx, aid(params)),
  }),
  declareOperation({
    id: 'attachments.download',
    method: 'GET',
    path: contentPath,
    tag: TAG,
    scope: 'work:read',
    summary: 'Download an attachment',
    description:
      'The bytes, always as a download: `Content-Disposition: attachment` with the safe name (RFC 6266 ' +
      '`filename*`), `Content-Type` the sniffed type (HTML and other markup are served as `text/plain`), ' +
      '`X-Content-Type-Options: nosniff` and a sandboxing `Content-Security-Policy`. Needs `view` on its record.',
    params: obj(paramsOf(contentPath)),
    response: Type.String({ format: 'binary', description: 'The bytes of the file.' }),
    status: 200,
    errors: ['not_found'],
    examples: attachmentExamples.download,
    file: {
      // The stored file's own (sniffed) type: any type, so the document says `*/*`.
      mediaType: '*/*',
      contentType: (a: StoredAttachment) => a.contentType,
      filename: (a: StoredAttachment) => a.fileName,
      content: (_storage, a: StoredAttachment, config) => blobStoreOf(config).get(a.blobKey),
    },
    run: (ctx, { params }) => requireAttachment(ctx, aid(params)),
  }),
  declareOperation({
    id: 'attachments.delete',
    method: 'DELETE',
    path: attachmentPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Delete an attachment',
    requires: "`contribute` on the record it is attached to for your own upload, `manage` for someone else's",
    description:
      'Deletes the file and its bytes. Its uploader needs `contribute` on the record, anyone else `manage`.',
    params: obj(paramsOf(attachmentPath)),
    response: null,
    status: 204,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'attachment', id: params.attachmentId }),
    errors: ['not_found'],
    run: (ctx, { params }) => deleteAttachment(ctx, aid(params)),
  }),
]
