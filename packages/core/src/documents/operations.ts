import { type TProperties, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { DocumentId, DocumentVersionId } from '../kernel/ids.ts'
import { type AnyOperation, type CapabilityTarget, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { documentExamples, lockExamples, subscriberExamples, versionExamples } from './examples.ts'
import { lockDocument, unlockDocument } from './locks.ts'
import { Document, DocumentHolderTypeSchema, DocumentSubscriber, DocumentVersion } from './schemas.ts'
import { DOCUMENT_SEARCH_MAX_TERMS } from './search.ts'
import {
  createDocument,
  deleteDocument,
  listDocuments,
  requireDocument,
  setDocumentArchived,
  updateDocument,
} from './service.ts'
import { listDocumentSubscribers, subscribeToDocument, unsubscribeFromDocument } from './subscribers.ts'
import { listDocumentVersions, requireDocumentVersion, restoreDocumentVersion } from './versions.ts'

const TAG = 'Documents'
const collectionPath = '/v1/orgs/{orgId}/documents'
const documentPath = `${collectionPath}/{documentId}`
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const did = (p: Record<string, string>) => p.documentId as DocumentId
const onDocument = ({ params }: { params: { documentId: string } }) => ({
  type: 'document' as const,
  id: params.documentId,
})
const archivedRule =
  'An archived document cannot be edited: restore it first. A locked one answers 409 `document_locked` until it is unlocked.'

const documents = resourceOperations({
  name: 'document',
  plural: 'documents',
  tag: TAG,
  schema: Document,
  collectionPath,
  idParam: 'documentId',
  idBrand: 'DocumentId',
  target: (p) => ({ type: 'document', id: p.documentId! }),
  // The holder is named in the body: `contribute` on that team or project.
  createTarget: (_p, body) => ({ type: body.holderType, id: body.holderId }) as CapabilityTarget,
  requires: { create: '`contribute` on the team or project named by `holderType` and `holderId`' },
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'contribute',
  },
  // The bodies take the document's own field schemas (kernel/body-fields.ts): one type to send and read.
  createBody: Type.Object(
    {
      ...fieldsOf(Document, {
        holderType: true,
        holderId: 'A TeamId or a ProjectId, as `holderType` says.',
        title: true,
      }),
      ...optionalFieldsOf(Document, { content: true, icon: true }),
    },
    { $id: 'DocumentCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(optionalFieldsOf(Document, { title: true, content: true, icon: true }), {
    $id: 'DocumentUpdate',
    additionalProperties: false,
    minProperties: 1,
  }),
  listQuery: {
    holderType: Type.Optional(DocumentHolderTypeSchema),
    holderId: Type.Optional(
      Type.String({ description: 'With `holderType`: only that team’s or project’s documents.' }),
    ),
    creatorId: Type.Optional(ActorIdSchema),
    q: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          `Full-text search of title and content: every word (up to ${DOCUMENT_SEARCH_MAX_TERMS}) must match, ` +
          'as a word or the start of one. Results come most relevant first (a match in the title weighs more).',
      }),
    ),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived documents: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    list: ['rule_violated'],
    create: ['archived', 'not_found'],
    update: ['archived', 'document_locked'],
  },
  descriptions: {
    list:
      'Documents of the teams and projects the caller can view, newest first, or most relevant first with `q`. ' +
      'Filters, search and permissions are one query, so pages are exact. `holderId` needs `holderType`, and `q` ' +
      'holds a bounded number of words (else 422 `rule_violated`).',
    get: 'A document whose team or project the caller cannot view is a 404, like a missing one.',
    create:
      'Creates a markdown document in a team or a project (needs `contribute` there, and the holder must not be ' +
      'archived). Its content is version 1; the creator is subscribed.',
    update: `A new \`content\` is stored as the next version (\`documents.versions.list\`). ${archivedRule}`,
    archive: 'Archived documents leave the default list and cannot be edited; their versions stay.',
    restore: 'Undoes `documents.archive`.',
    delete: 'Deletes the document with its versions and subscribers (needs `contribute` on its holder).',
  },
  examples: documentExamples,
  handlers: {
    list: (ctx, _p, query) => listDocuments(ctx, query),
    get: (ctx, p) => requireDocument(ctx, did(p)),
    create: (ctx, _p, body) => createDocument(ctx, body),
    update: (ctx, p, body) => updateDocument(ctx, did(p), body),
    archive: (ctx, p) => setDocumentArchived(ctx, did(p), true),
    restore: (ctx, p) => setDocumentArchived(ctx, did(p), false),
    delete: (ctx, p) => deleteDocument(ctx, did(p)),
  },
})

const versionPath = `${documentPath}/versions/{versionId}`
const versions: AnyOperation[] = [
  subListOperation({
    id: 'documents.versions.list',
    path: `${documentPath}/versions`,
    tag: TAG,
    summary: "List a document's content versions",
    description:
      'Every saved content, newest first: the first is the current content. Each content change (create, update, ' +
      'restore of a version) adds one.',
    item: DocumentVersion,
    itemName: 'DocumentVersion',
    examples: versionExamples.list,
    run: (ctx, params, query) => listDocumentVersions(ctx, did(params), query),
  }),
  declareOperation({
    id: 'documents.versions.get',
    method: 'GET',
    path: versionPath,
    tag: TAG,
    scope: 'work:read',
    summary: 'Get one version of a document',
    description: 'The content as it was saved then.',
    params: obj(paramsOf(versionPath)),
    response: DocumentVersion,
    status: 200,
    errors: ['not_found'],
    examples: versionExamples.get,
    run: (ctx, { params }) => requireDocumentVersion(ctx, did(params), params.versionId as DocumentVersionId),
  }),
  declareOperation({
    id: 'documents.versions.restore',
    method: 'POST',
    path: `${versionPath}/restore`,
    tag: TAG,
    scope: 'work:write',
    summary: 'Restore a version of a document',
    description:
      'Saves that version’s content as a new version (the history keeps what it replaced) and answers the ' +
      `document. Restoring the current content changes nothing. ${archivedRule}`,
    params: obj(paramsOf(versionPath)),
    response: Document,
    status: 200,
    capability: 'contribute',
    target: onDocument,
    errors: ['not_found', 'archived', 'document_locked'],
    examples: versionExamples.restore,
    run: (ctx, { params }) => restoreDocumentVersion(ctx, did(params), params.versionId as DocumentVersionId),
  }),
]

const subscriberPath = `${documentPath}/subscribers/{actorId}`
const subscriberParams = obj({ ...paramsOf(documentPath), actorId: ActorIdSchema })
const subscribers: AnyOperation[] = [
  subListOperation({
    id: 'documents.subscribers.list',
    path: `${documentPath}/subscribers`,
    tag: TAG,
    summary: "List a document's subscribers",
    description: 'By actor id. The creator is subscribed automatically.',
    item: DocumentSubscriber,
    itemName: 'DocumentSubscriber',
    examples: subscriberExamples.list,
    run: (ctx, params, query) => listDocumentSubscribers(ctx, did(params), query),
  }),
  declareOperation({
    id: 'documents.subscribers.add',
    method: 'PUT',
    path: subscriberPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Subscribe to a document',
    requires: '`comment` on the document to subscribe yourself, `manage` to subscribe someone else',
    description:
      'Subscribing oneself needs `comment` on the document; subscribing someone else needs `manage`. Idempotent: subscribing again changes nothing, emits nothing and answers the same record (same `addedAt`).',
    params: subscriberParams,
    response: DocumentSubscriber,
    status: 200,
    capability: 'comment',
    target: onDocument,
    errors: ['not_found'],
    examples: subscriberExamples.add,
    run: (ctx, { params }) => subscribeToDocument(ctx, did(params), params.actorId as never),
  }),
  declareOperation({
    id: 'documents.subscribers.remove',
    method: 'DELETE',
    path: subscriberPath,
    tag: TAG,
    scope: 'work:write',
    summary: 'Unsubscribe from a document',
    requires: '`comment` on the document to unsubscribe yourself, `manage` to unsubscribe someone else',
    description:
      'Oneself with `comment`; someone else with `manage`. Idempotent: someone not subscribed changes nothing (204, no event).',
    params: subscriberParams,
    response: null,
    status: 204,
    capability: 'comment',
    target: onDocument,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await unsubscribeFromDocument(ctx, did(params), params.actorId as never)
      return undefined
    },
  }),
]

const locking = (lock: boolean) =>
  declareOperation({
    id: lock ? 'documents.lock' : 'documents.unlock',
    method: 'POST',
    path: `${documentPath}/${lock ? 'lock' : 'unlock'}`,
    tag: TAG,
    scope: 'work:write',
    summary: lock ? 'Lock a document against edits' : 'Unlock a document',
    description: lock
      ? 'While locked, `documents.update` and `documents.versions.restore` answer 409 `document_locked` (for the locker too). ' +
        'Locking a locked document changes nothing; the lock stays with whoever took it.'
      : 'Whoever locked the document unlocks it with `contribute`; anyone else needs `manage`. ' +
        'Unlocking an unlocked document changes nothing.',
    params: obj(paramsOf(documentPath)),
    response: Document,
    status: 200,
    capability: 'contribute',
    target: onDocument,
    requires: lock ? undefined : '`contribute` on the document if you locked it, `manage` otherwise',
    errors: ['not_found'],
    examples: lock ? lockExamples.lock : lockExamples.unlock,
    run: (ctx, { params }) => (lock ? lockDocument : unlockDocument)(ctx, did(params)),
  })

/** Documents, their content versions, subscribers and locks: docs/documents.md. */
export const documentOperations: AnyOperation[] = [
  ...documents,
  ...versions,
  ...subscribers,
  locking(true),
  locking(false),
]
