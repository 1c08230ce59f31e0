import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { withArticle } from '../kernel/article.ts'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { UpdateId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation, type OperationExamples } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { feedExample, historyExample, updateExamples } from './examples.ts'
import {
  StatusUpdate,
  UPDATE_SUBJECT_TYPES,
  UpdateHealthSchema,
  UpdateRevision,
  type UpdateSubjectType,
} from './schemas.ts'
import {
  createUpdate,
  deleteUpdate,
  listFeed,
  listUpdateHistory,
  requireUpdate,
  setUpdateArchived,
  updateUpdate,
} from './service.ts'

const itemPath = '/v1/orgs/{orgId}/updates'
const rule =
  'Only its author (with `contribute` on the subject) or someone with `manage` on the subject may do it. ' +
  'These item operations serve every update, whatever its subject (a project, an initiative or a program).'

/** The body every subject's `…updates.create` takes: the update's own field schemas (kernel/body-fields.ts). */
export const UpdateCreateBody = Type.Object(fieldsOf(StatusUpdate, { body: true, health: true }), {
  $id: 'StatusUpdateCreate',
  additionalProperties: false,
})

/**
 * `<plural>.updates.create`: posting a status update on one kind of subject, under the subject's path
 * (`projects.updates.create`). Every other act on the update goes through the shared `updates.*` items.
 */
export function subjectUpdateCreate(s: {
  subjectType: UpdateSubjectType
  /** `projects`, for the id `projects.updates.create`. */
  plural: string
  tag: string
  /** The subject's item path, e.g. `/v1/orgs/{orgId}/projects/{projectId}`. */
  itemPath: string
  idParam: string
  description: string
  examples: OperationExamples
}): AnyOperation {
  const path = `${s.itemPath}/updates`
  return declareOperation({
    id: `${s.plural}.updates.create`,
    method: 'POST',
    path,
    tag: s.tag,
    scope: 'work:write',
    summary: `Post a status update on ${withArticle(s.subjectType)}`,
    description: `${s.description} Read, edit, archive and delete it with \`updates.get/update/archive/restore/delete\`.`,
    params: Type.Object(paramsOf(path), { additionalProperties: false }),
    body: UpdateCreateBody,
    response: StatusUpdate,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: s.subjectType, id: params[s.idParam] as string }),
    errors: ['not_found', 'archived'],
    location: 'updates.get',
    examples: s.examples,
    run: (ctx, { params, body }) =>
      createUpdate(ctx, s.subjectType, params[s.idParam] as string, body as Static<typeof UpdateCreateBody>),
  })
}

/** `updates.get/update/archive/restore/delete`: one set of item operations for every subject's updates. */
const updateItems = resourceOperations({
  name: 'status update',
  plural: 'updates',
  tag: 'Status updates',
  schema: StatusUpdate,
  collectionPath: itemPath,
  idParam: 'updateId',
  idBrand: 'UpdateId',
  target: (p) => ({ type: 'update', id: p.updateId! }),
  requires: {
    update: "`contribute` on the status update's subject for your own update, `manage` for someone else's",
    archive: "`contribute` on the status update's subject for your own update, `manage` for someone else's",
    restore: "`contribute` on the status update's subject for your own update, `manage` for someone else's",
    delete: "`contribute` on the status update's subject for your own update, `manage` for someone else's",
  },
  capabilities: {
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'contribute',
  },
  updateBody: Type.Object(optionalFieldsOf(StatusUpdate, { body: true, health: true }), {
    $id: 'StatusUpdateUpdate',
    additionalProperties: false,
    minProperties: 1,
  }),
  descriptions: {
    get: 'An update of a project, a program or an initiative the caller cannot view is a 404, like a missing one.',
    update: `Keeps the replaced body and health in \`updates.history.list\` and sets \`editedAt\`. ${rule}`,
    archive: `An archived update no longer counts for its subject’s \`health\`. ${rule}`,
    restore: `Undoes \`updates.archive\`. ${rule}`,
    delete: `Deletes the update and its history. ${rule}`,
  },
  examples: updateExamples,
  handlers: {
    get: (ctx, p) => requireUpdate(ctx, p.updateId as UpdateId),
    update: (ctx, p, body) => updateUpdate(ctx, p.updateId as UpdateId, body),
    archive: (ctx, p) => setUpdateArchived(ctx, p.updateId as UpdateId, true),
    restore: (ctx, p) => setUpdateArchived(ctx, p.updateId as UpdateId, false),
    delete: (ctx, p) => deleteUpdate(ctx, p.updateId as UpdateId),
  },
})

const projectUpdateCreate = subjectUpdateCreate({
  subjectType: 'project',
  plural: 'projects',
  tag: 'Status updates',
  itemPath: '/v1/orgs/{orgId}/projects/{projectId}',
  idParam: 'projectId',
  description:
    'Posts an update with its health on the project (needs `contribute`); it records the project’s progress ' +
    'as the author sees it then. The latest unarchived update gives the project its `health`.',
  examples: updateExamples.create!,
})

const history = subListOperation({
  id: 'updates.history.list',
  path: `${itemPath}/{updateId}/history`,
  tag: 'Status updates',
  summary: "List a status update's edit history",
  description:
    'The bodies and healths that edits replaced, newest first, each with its editor and when it was replaced; ' +
    'keyset pages (`cursor`, `limit`, `nextCursor`). The current version is the update itself.',
  item: UpdateRevision,
  itemName: 'UpdateRevision',
  examples: historyExample,
  run: (ctx, params, query) => listUpdateHistory(ctx, params.updateId as UpdateId, query),
})

const feed = declareOperation({
  id: 'updates.list',
  method: 'GET',
  path: itemPath,
  tag: 'Status updates',
  scope: 'work:read',
  summary: 'List every status update of the org',
  description:
    'One feed of the updates of every subject (projects, initiatives, programs) the caller can view, newest first; ' +
    'archived ones are left out unless `archived` asks for them. One subject’s updates are `subjectType` and ' +
    '`subjectId` (`?subjectType=project&subjectId=proj_…`). An update on a subject the caller cannot view is never ' +
    'listed (a hidden or unknown subject gives an empty page), and pages stay exact. An `until` before `since` is 422 `rule_violated`.',
  params: Type.Object(paramsOf(itemPath), { additionalProperties: false }),
  query: Type.Object(
    {
      ...PageQuery,
      subjectType: Type.Optional(
        StringEnum(UPDATE_SUBJECT_TYPES, { description: 'Only updates on this kind.' }),
      ),
      subjectId: Type.Optional(
        Type.String({
          pattern: '^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$',
          description: 'Only updates on this subject (a ProjectId, an InitiativeId or a ProgramId).',
        }),
      ),
      health: Type.Optional(UpdateHealthSchema),
      archived: Type.Optional(
        StringEnum(['exclude', 'only', 'include'] as const, {
          default: 'exclude',
          description: 'Archived updates: left out (default), only them, or both.',
        }),
      ),
      authorId: Type.Optional(ActorIdSchema),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'Posted at or after.' })),
      until: Type.Optional(Type.String({ format: 'date-time', description: 'Posted before.' })),
    },
    { additionalProperties: false },
  ),
  response: PageOf(StatusUpdate, 'StatusUpdate'),
  status: 200,
  errors: ['invalid_cursor', 'rule_violated'],
  examples: feedExample,
  run: (ctx, { query }) => listFeed(ctx, query as never),
})

export const updateOperations: AnyOperation[] = [feed, projectUpdateCreate, ...updateItems, history]
