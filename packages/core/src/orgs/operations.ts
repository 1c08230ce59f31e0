import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import { currentOrg } from '../kernel/context.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { resourceOperations } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { memberExamples, orgExamples } from './examples.ts'
import { Member, Org } from './schemas.ts'
import {
  archiveOrg,
  createOrg,
  getMember,
  listMembers,
  listMyOrgs,
  restoreOrg,
  updateOrg,
} from './service.ts'

const OrgPage = PageOf(Org, 'Org')
// The bodies take the workspace's own field schemas (kernel/body-fields.ts): one type to send and read.
const OrgCreate = Type.Object(
  { ...fieldsOf(Org, { name: true }), ...optionalFieldsOf(Org, { slug: true }) },
  { $id: 'OrgCreate', additionalProperties: false },
)
const OrgUpdate = Type.Object(optionalFieldsOf(Org, { name: true, slug: true }), {
  $id: 'OrgUpdate',
  additionalProperties: false,
  minProperties: 1,
})

const orgOperations: AnyOperation[] = [
  declareOperation({
    id: 'orgs.create',
    method: 'POST',
    path: '/v1/orgs',
    tag: 'Orgs',
    scope: 'work:write',
    summary: 'Create a workspace',
    description:
      'Creates a workspace and makes the caller its owner, its first member. Without a `slug`, one is made from the name (`Acme Inc` → `acme-inc`, then `acme-inc-2` if that is taken); a `slug` you give that is taken is a 409 `key_taken`. Any signed-in person may create one. Emits `org.created` and `member.created`.',
    body: OrgCreate,
    response: Org,
    status: 201,
    errors: ['key_taken'],
    location: 'orgs.get',
    examples: orgExamples.create,
    run: (ctx, { body }) => createOrg(ctx, body),
  }),
  declareOperation({
    id: 'orgs.list',
    method: 'GET',
    path: '/v1/orgs',
    tag: 'Orgs',
    scope: 'work:read',
    summary: "List the caller's workspaces",
    description:
      "The workspaces in which the caller is an active member, archived ones included, oldest first. A workspace where they were deactivated or removed is not listed. Each id is the `orgId` of the paths under `/v1/orgs/{orgId}`; `me.get` also gives the caller's role in each.",
    query: Type.Object({ ...PageQuery }, { additionalProperties: false }),
    response: OrgPage,
    status: 200,
    errors: ['invalid_cursor'],
    examples: orgExamples.list,
    run: (ctx, { query }) => listMyOrgs(ctx, query),
  }),
  declareOperation({
    id: 'orgs.get',
    method: 'GET',
    path: '/v1/orgs/{orgId}',
    tag: 'Orgs',
    scope: 'work:read',
    summary: 'Get a workspace',
    description:
      'The workspace: its name, slug and whether it is archived. Every active member can read it; anyone else gets 404, as for a workspace that does not exist.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    response: Org,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: orgExamples.get,
    run: async (ctx) => currentOrg(ctx),
  }),
  declareOperation({
    id: 'orgs.update',
    method: 'PATCH',
    path: '/v1/orgs/{orgId}',
    tag: 'Orgs',
    scope: 'work:write',
    summary: 'Rename a workspace',
    description:
      'Changes the name or the slug (at least one). A slug another workspace uses is a 409 `key_taken`. Emits `org.updated` with the changed fields.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    body: OrgUpdate,
    response: Org,
    status: 200,
    capability: 'manage',
    errors: ['not_found', 'key_taken', 'precondition_failed'],
    precondition: 'orgs.get',
    examples: orgExamples.update,
    run: (ctx, { body }) => updateOrg(ctx, body),
  }),
  declareOperation({
    id: 'orgs.archive',
    method: 'POST',
    path: '/v1/orgs/{orgId}/archive',
    tag: 'Orgs',
    scope: 'work:write',
    summary: 'Archive a workspace',
    description:
      'An archived workspace stays readable and refuses every other write with 409 `archived` until `orgs.restore`. Emits `org.archived`.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    response: Org,
    status: 200,
    capability: 'manage',
    errors: ['not_found', 'precondition_failed'],
    precondition: 'orgs.get',
    examples: orgExamples.archive,
    run: (ctx) => archiveOrg(ctx),
  }),
  declareOperation({
    id: 'orgs.restore',
    method: 'POST',
    path: '/v1/orgs/{orgId}/restore',
    tag: 'Orgs',
    scope: 'work:write',
    summary: 'Restore an archived workspace',
    description:
      'Makes an archived workspace writable again; restoring one that is not archived changes nothing. Emits `org.restored`.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    response: Org,
    status: 200,
    capability: 'manage',
    errors: ['not_found', 'precondition_failed'],
    precondition: 'orgs.get',
    examples: orgExamples.restore,
    run: (ctx) => restoreOrg(ctx),
  }),
]

const memberOperations = resourceOperations({
  name: 'member',
  plural: 'members',
  tag: 'Members',
  schema: Member,
  collectionPath: '/v1/orgs/{orgId}/members',
  idParam: 'memberId',
  idBrand: 'MemberId',
  target: () => ({ type: 'org' }),
  capabilities: {},
  listQuery: {
    status: Type.Optional(
      StringEnum(['active', 'deactivated', 'removed'] as const, {
        description: 'Removed members are listed only when asked for.',
      }),
    ),
  },
  descriptions: {
    list: 'The people of the workspace, by member id (oldest first), active and deactivated ones unless `status` picks one; removed members only with `status=removed`. A member away today carries `away.until`. Every member may list them, guests included.',
    get: 'One member, with `away` while they are away today. A removed member is a 404.',
  },
  examples: { list: memberExamples.list, get: memberExamples.get },
  handlers: {
    list: (ctx, _params, query) => listMembers(ctx, query),
    get: (ctx, params) => getMember(ctx, currentOrg(ctx).id, params.memberId as Member['id']),
  },
})

export const orgsCatalogue: AnyOperation[] = [...orgOperations, ...memberOperations]
