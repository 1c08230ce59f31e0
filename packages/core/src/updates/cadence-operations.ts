import { Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { WeekdaySchema } from '../projects/schemas.ts'
import { MAX_CADENCE_WEEKS, UpdateSettings } from '../projects/update-settings.ts'
import { getUpdateSettings, listDue, updateUpdateSettings } from './cadence.ts'
import { cadenceExamples } from './cadence-examples.ts'
import { UpdateDueItem, UpdateRequest, UpdateRequestBody } from './cadence-schemas.ts'
import { requestUpdate } from './requests.ts'
import { UPDATE_SUBJECT_TYPES } from './schemas.ts'

const TAG = 'Status updates'
const orgParams = (path: string) => Type.Object(paramsOf(path), { additionalProperties: false })
const settingsPath = '/v1/orgs/{orgId}/update-settings'

const CadencePatch = Type.Optional(
  Type.Object(
    {
      everyWeeks: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CADENCE_WEEKS })),
      weekday: Type.Optional(WeekdaySchema),
      hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23 })),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
)

export const cadenceOperations: AnyOperation[] = [
  declareOperation({
    id: 'updateSettings.get',
    method: 'GET',
    path: settingsPath,
    tag: TAG,
    scope: 'work:read',
    summary: "The org's default update cadence",
    description:
      'Per kind of record (projects, programs, initiatives): an update every `everyWeeks` weeks (0: none expected) ' +
      'on `weekday` at `hour` UTC. Until changed, none is expected.',
    params: orgParams(settingsPath),
    response: UpdateSettings,
    status: 200,
    etag: true,
    errors: [],
    examples: cadenceExamples.settingsGet,
    run: (ctx) => getUpdateSettings(ctx),
  }),
  declareOperation({
    id: 'updateSettings.update',
    method: 'PATCH',
    path: settingsPath,
    tag: TAG,
    scope: 'work:write',
    summary: "Change the org's default update cadence",
    description:
      'Changes the fields sent, per kind. Projects whose `updateCadence` is `orgDefault` (new projects, unless they ' +
      'say otherwise) and every program and initiative follow the new cadence at once. Needs `manage` on the org.',
    params: orgParams(settingsPath),
    body: Type.Object(
      { project: CadencePatch, program: CadencePatch, initiative: CadencePatch },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: UpdateSettings,
    status: 200,
    capability: 'manage',
    target: () => ({ type: 'org' }),
    precondition: 'updateSettings.get',
    errors: ['precondition_failed'],
    examples: cadenceExamples.settingsUpdate,
    run: (ctx, { body }) => updateUpdateSettings(ctx, body as never),
  }),
  declareOperation({
    id: 'updates.due',
    method: 'GET',
    path: '/v1/orgs/{orgId}/updates/due',
    tag: TAG,
    scope: 'work:read',
    summary: 'List the records whose status update is due',
    description:
      'Open projects, programs and initiatives the caller can view whose next status update, by their cadence, is ' +
      'due or overdue, earliest due first. A project with its own `updateCadence` follows it; the others follow the ' +
      "org's default (`updateSettings.get`). Counting starts at the latest update, or at creation before the first. " +
      '`ownerId=me` keeps those you lead or own.',
    params: orgParams('/v1/orgs/{orgId}/updates/due'),
    query: Type.Object(
      {
        ...PageQuery,
        subjectType: Type.Optional(StringEnum(UPDATE_SUBJECT_TYPES, { description: 'Only this kind.' })),
        ownerId: Type.Optional(
          Type.Union([IdSchema('MemberId'), Type.Literal('me')], {
            description: 'Only records this member leads or owns; `me` for the caller.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: PageOf(UpdateDueItem, 'UpdateDueItem'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: cadenceExamples.due,
    run: (ctx, { query }) => listDue(ctx, query as never),
  }),
  declareOperation({
    id: 'updateRequests.create',
    method: 'POST',
    path: '/v1/orgs/{orgId}/update-requests',
    tag: TAG,
    scope: 'work:write',
    summary: 'Ask for a status update',
    requires: '`comment` on the record named by `subjectType` and `subjectId`',
    description:
      "Asks the project's lead, or the program's or initiative's owner, for a status update: they get an " +
      '`updateRequested` notification when they can view the record. Asking needs `comment` on the record. A ' +
      'request stays open until an update is posted; while one asked today is open, another answers 409 ' +
      '`update_already_requested`. A record without a lead or owner answers 422 `no_update_owner`.',
    params: orgParams('/v1/orgs/{orgId}/update-requests'),
    body: UpdateRequestBody,
    response: UpdateRequest,
    status: 201,
    // Like following or reacting: a participation above reading, so a view-only reader cannot nag.
    capability: 'comment',
    target: ({ body }) => ({
      type: (body as UpdateRequestBody).subjectType,
      id: (body as UpdateRequestBody).subjectId,
      pointer: '/body/subjectId',
    }),
    errors: ['not_found', 'reference_not_found', 'archived', 'update_already_requested', 'no_update_owner'],
    examples: cadenceExamples.request,
    run: (ctx, { body }) => requestUpdate(ctx, body as never),
  }),
]
