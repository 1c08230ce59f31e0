import { Type } from '@sinclair/typebox'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { AnyJson, PageOf, StringEnum } from '../kernel/schema-types.ts'
import {
  deleteRecordProperty,
  getRecordProperty,
  listRecordProperties,
  putRecordProperty,
} from './record-properties.ts'
import {
  recordPropertyExample as example,
  PropertyKey,
  RECORD_TYPES,
  RecordProperty,
  type RecordType,
} from './schemas.ts'
import type { RecordRef } from './storage.ts'

const TAG = 'Connectors'
const collection = '/v1/orgs/{orgId}/records/{recordType}/{recordId}/properties'
const one = `${collection}/{propertyKey}`
const RecordParams = {
  ...paramsOf('/v1/orgs/{orgId}'),
  recordType: StringEnum(RECORD_TYPES, { description: 'The kind of record.' }),
  recordId: Type.String({
    pattern: '^(task|proj|prg|ini)_[0-9A-HJKMNP-TV-Z]{26}$',
    description: 'The id of the task, project, program or initiative (of the kind `recordType` names).',
    examples: ['task_01JD3Q2R4S5T6V7W8X9YZABCDE'],
  }),
}
const collectionParams = Type.Object(RecordParams, { additionalProperties: false })
const oneParams = Type.Object({ ...RecordParams, propertyKey: PropertyKey }, { additionalProperties: false })
const recordOf = (p: Record<string, unknown>): RecordRef => ({
  type: p.recordType as RecordType,
  id: p.recordId as string,
})
const target = ({ params }: { params: Record<string, unknown> }) => ({
  type: params.recordType as RecordType,
  id: params.recordId as string,
})

/**
 * App-owned JSON on a record (Jira's entity properties): each OAuth client reads and writes only its
 * own keys, so an integration can keep its external id and sync state without touching the record.
 */
export const recordPropertyOperations: AnyOperation[] = [
  declareOperation({
    id: 'records.properties.list',
    method: 'GET',
    path: collection,
    tag: TAG,
    scope: 'work:read',
    summary: "List your app's properties on a record",
    description:
      "The properties the calling token's OAuth client set on a record you can view, by key. Other clients' properties are not listed.",
    params: collectionParams,
    query: Type.Object(
      {
        ...PageQuery,
      },
      { additionalProperties: false },
    ),
    response: PageOf(RecordProperty, 'RecordProperty'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: { response: { data: [example], nextCursor: null } },
    run: (ctx, { params, query }) => listRecordProperties(ctx, recordOf(params), query),
  }),
  declareOperation({
    id: 'records.properties.get',
    method: 'GET',
    path: one,
    tag: TAG,
    scope: 'work:read',
    summary: "Get one of your app's properties",
    description: "Another client's key is a 404, like a missing one.",
    params: oneParams,
    response: RecordProperty,
    status: 200,
    etag: true,
    examples: { response: example },
    errors: [],
    run: (ctx, { params }) => getRecordProperty(ctx, recordOf(params), params.propertyKey as string),
  }),
  declareOperation({
    id: 'records.properties.set',
    method: 'PUT',
    path: one,
    tag: TAG,
    scope: 'connectors:link',
    summary: "Set one of your app's properties",
    description:
      "Creates or replaces the key in the calling token's client namespace; needs `contribute` on the record. The value is any JSON up to 32 KiB serialised (413 `payload_too_large` above). Send `If-Match` with the ETag of `records.properties.get` to replace only an unchanged value.",
    params: oneParams,
    body: Type.Object(
      { value: AnyJson('Any JSON, at most 32 KiB serialised.') },
      { additionalProperties: false, examples: [{ value: example.value }] },
    ),
    response: RecordProperty,
    status: 200,
    capability: 'contribute',
    target,
    precondition: 'records.properties.get',
    examples: { request: { value: example.value }, response: example },
    errors: ['payload_too_large', 'precondition_failed'],
    run: (ctx, { params, body }) =>
      putRecordProperty(
        ctx,
        recordOf(params),
        params.propertyKey as string,
        (body as { value: unknown }).value,
      ),
  }),
  declareOperation({
    id: 'records.properties.delete',
    method: 'DELETE',
    path: one,
    tag: TAG,
    scope: 'connectors:link',
    summary: "Delete one of your app's properties",
    description: 'Needs `contribute` on the record.',
    params: oneParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target,
    precondition: 'records.properties.get',
    errors: ['precondition_failed'],
    run: async (ctx, { params }) => {
      await deleteRecordProperty(ctx, recordOf(params), params.propertyKey as string)
      return undefined
    },
  }),
]
