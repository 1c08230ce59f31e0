import { Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { resourceOperations } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { memberExamples, orgExamples } from './examples.ts'
import { Member, Org, Slug } from './schemas.ts'
import {
  archiveOrg,
  createOrg,
  currentOrg,
  getMember,
  listMembers,
  listMyOrgs,
  restoreOrg,
  updateOrg,
} from './service.ts'

const OrgPage = PageOf(Org, 'Org')
const OrgName = Type.String({ minLength: 1, maxLength: 120 })

const orgOperations: AnyOperation[] = [
  declareOperation({
    id: 'orgs.create',
    method: 'POST',
    path: '/v1/orgs',
    tag: 'Orgs',
    scope: 'work:write',
    summary: 'Create a workspace',
    description: 'The caller becomes its owner. Without a `slug`, one is made from the name.',
    body: Type.Object({ name: OrgName, slug: Type.Optional(Slug) }, { additionalProperties: false }),
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
    description: 'Workspaces in which the caller is an active member.',
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
    description: 'Change the name or the slug. Needs `manage`.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    body: Type.Object(
      { name: Type.Optional(OrgName), slug: Type.Optional(Slug) },
      { additionalProperties: false, minProperties: 1 },
    ),
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
    description: 'An archived workspace stays readable and refuses every write until restored.',
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
  examples: { list: memberExamples.list, get: memberExamples.get },
  handlers: {
    list: (ctx, _params, query) => listMembers(ctx, query),
    get: (ctx, params) => getMember(ctx, currentOrg(ctx).id, params.memberId as Member['id']),
  },
})

export const orgsCatalogue: AnyOperation[] = [...orgOperations, ...memberOperations]
