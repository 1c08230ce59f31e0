import { Type } from '@sinclair/typebox'
import { CapabilitySchema, ContainerApprovalPolicy, POLICY_CONTAINER_TYPES } from '../access/schemas.ts'
import type { ApprovalPolicyId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { policyExamples } from './examples.ts'
import { createPolicy, deletePolicy, listPolicies, requirePolicy, updatePolicy } from './policies.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
const policiesPath = '/v1/orgs/{orgId}/approval-policies'
const policyPath = `${policiesPath}/{policyId}`
const pid = (params: Record<string, unknown>) => params.policyId as ApprovalPolicyId

const Operations = Type.Array(Type.String({ pattern: '^[a-zA-Z]+(\\.[a-zA-Z]+)+$', maxLength: 100 }), {
  maxItems: 100,
  uniqueItems: true,
  description:
    'Operation ids of the catalogue (such as `tasks.delete`) that wait for approval; an id the catalogue does not have is 422 `rule_violated`. A policy names at least one operation or capability.',
})
const Capabilities = Type.Array(CapabilitySchema, {
  maxItems: 5,
  uniqueItems: true,
  description: 'Actions needing any of these capabilities wait for approval.',
})
const AgentIds = Type.Array(IdSchema('AgentId'), {
  maxItems: 100,
  uniqueItems: true,
  description: 'The agents it gates; empty (the default) for every agent.',
})
const ApproverCapability = StringEnum(['contribute', 'assign', 'manage'] as const, {
  description:
    "What a person needs on the action's target to decide the request, besides the capability the action needs. Default `manage`.",
})

export const policyOperations: AnyOperation[] = [
  declareOperation({
    id: 'approvalPolicies.list',
    method: 'GET',
    path: policiesPath,
    tag: 'Approvals',
    scope: 'work:read',
    summary: 'List approval policies',
    requires:
      "`view` on the container named by `containerType` and `containerId` (every member for the workspace's); `manage` on the workspace without a filter",
    description:
      "The org's policies are listed to every member (`containerType=org`); a team's or project's to whoever can view it (`containerType=team|project&containerId=…`). Without a filter, every policy of the org, for those with `manage` on it.",
    params: obj(paramsOf(policiesPath)),
    query: obj({
      ...PageQuery,
      containerType: Type.Optional(StringEnum(POLICY_CONTAINER_TYPES)),
      containerId: Type.Optional(
        Type.String({
          maxLength: 40,
          description: 'Required with `containerType` `team` or `project` (else 422 `rule_violated`).',
        }),
      ),
    }),
    response: PageOf(ContainerApprovalPolicy, 'ContainerApprovalPolicy'),
    status: 200,
    errors: ['invalid_cursor', 'not_found', 'capability_required', 'rule_violated'],
    examples: policyExamples.list,
    run: (ctx, { query }) => listPolicies(ctx, query),
  }),
  declareOperation({
    id: 'approvalPolicies.create',
    method: 'POST',
    path: policiesPath,
    tag: 'Approvals',
    scope: 'work:write',
    summary: 'Gate agent actions on a container',
    requires: '`manage` on the container named by `containerType` and `containerId`',
    description:
      "Actions of agents on records the container holds, naming one of `operations` or needing one of `capabilities`, become approval requests instead of running. Needs `manage` on the container (403 `capability_required` on one the caller can view); a team or project that does not exist or that the caller cannot view is a 422 `reference_not_found` at `containerId`. The agent's own `approvalPolicy` still applies everywhere.",
    params: obj(paramsOf(policiesPath)),
    body: obj({
      containerType: StringEnum(POLICY_CONTAINER_TYPES),
      containerId: Type.String({ maxLength: 40, description: 'The OrgId, TeamId or ProjectId.' }),
      operations: Type.Optional(Operations),
      capabilities: Type.Optional(Capabilities),
      agentIds: Type.Optional(AgentIds),
      approverCapability: Type.Optional(ApproverCapability),
    }),
    response: ContainerApprovalPolicy,
    status: 201,
    errors: ['reference_not_found', 'capability_required', 'rule_violated'],
    location: 'approvalPolicies.get',
    examples: policyExamples.create,
    run: (ctx, { body }) => createPolicy(ctx, body as Parameters<typeof createPolicy>[1]),
  }),
  declareOperation({
    id: 'approvalPolicies.get',
    method: 'GET',
    path: policyPath,
    tag: 'Approvals',
    scope: 'work:read',
    summary: 'Get an approval policy',
    description:
      'One approval policy: the container it gates, the operations and capabilities it holds for approval, the agents it applies to, the approver capability and its `version`. A policy on a container the caller cannot view is a 404.',
    requires: '`view` on its container',
    params: obj(paramsOf(policyPath)),
    response: ContainerApprovalPolicy,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: policyExamples.get,
    run: (ctx, { params }) => requirePolicy(ctx, pid(params)),
  }),
  declareOperation({
    id: 'approvalPolicies.update',
    method: 'PATCH',
    path: policyPath,
    tag: 'Approvals',
    scope: 'work:write',
    summary: 'Change an approval policy',
    requires: '`manage` on its container',
    description:
      'Needs `manage` on its container. Each change adds one to `version`; pending requests keep the version they were created under.',
    params: obj(paramsOf(policyPath)),
    body: Type.Object(
      {
        operations: Type.Optional(Operations),
        capabilities: Type.Optional(Capabilities),
        agentIds: Type.Optional(AgentIds),
        approverCapability: Type.Optional(ApproverCapability),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: ContainerApprovalPolicy,
    status: 200,
    errors: [
      'not_found',
      'reference_not_found',
      'capability_required',
      'precondition_failed',
      'rule_violated',
    ],
    precondition: 'approvalPolicies.get',
    examples: policyExamples.update,
    run: (ctx, { params, body }) =>
      updatePolicy(ctx, pid(params), body as Parameters<typeof updatePolicy>[2]),
  }),
  declareOperation({
    id: 'approvalPolicies.delete',
    method: 'DELETE',
    path: policyPath,
    tag: 'Approvals',
    scope: 'work:write',
    summary: 'Remove an approval policy',
    requires: '`manage` on its container',
    description: 'Needs `manage` on its container. Pending requests it held stay pending until decided.',
    params: obj(paramsOf(policyPath)),
    response: null,
    status: 204,
    errors: ['not_found', 'capability_required', 'precondition_failed'],
    precondition: 'approvalPolicies.get',
    run: async (ctx, { params }) => deletePolicy(ctx, pid(params)),
  }),
]
