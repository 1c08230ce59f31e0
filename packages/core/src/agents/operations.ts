import { Type } from '@sinclair/typebox'
import {
  AGENT_ACTIVITY_KINDS,
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalPolicy,
  ApprovalRequest,
  SESSION_STATES,
} from '../access/schemas.ts'
import type { AgentId, AgentSessionId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { AnyJson, Nullable, PageOf, StringEnum } from '../kernel/schema-types.ts'
import { approvalOperations } from './approval-operations.ts'
import { agentExamples, promptExample, sessionExamples, updateSessionExample } from './examples.ts'
import { policyOperations } from './policy-operations.ts'
import { createAgent, listAgents, requireAgent, updateAgent } from './service.ts'
import {
  act,
  appendActivity,
  cancelSession,
  finishSession,
  listActivities,
  listSessions,
  promptSession,
  requireSession,
  startSession,
  updateSession,
} from './sessions.ts'

const obj = (props: Parameters<typeof Type.Object>[0]) => Type.Object(props, { additionalProperties: false })
const AgentName = Type.String({ minLength: 1, maxLength: 120 })
const Description = Nullable(Type.String({ maxLength: 2000 }), 'Markdown.')

const agentOperations = resourceOperations({
  name: 'agent',
  plural: 'agents',
  tag: 'Agents',
  schema: Agent,
  collectionPath: '/v1/orgs/{orgId}/agents',
  idParam: 'agentId',
  idBrand: 'AgentId',
  target: () => ({ type: 'org' }),
  capabilities: { create: 'manage', update: 'manage', archive: 'manage', restore: 'manage' },
  createBody: obj({
    name: AgentName,
    description: Type.Optional(Description),
    approvalPolicy: Type.Optional(ApprovalPolicy),
  }),
  updateBody: Type.Object(
    {
      name: Type.Optional(AgentName),
      description: Type.Optional(Description),
      approvalPolicy: Type.Optional(ApprovalPolicy),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: { status: Type.Optional(StringEnum(['active', 'deactivated'] as const)) },
  descriptions: {
    list: "The workspace's agents, oldest first, active and deactivated unless `status` picks one. Every member may list them.",
    get: 'One agent: its name, status and the approval policy its actions follow.',
    create:
      'Creates an agent: an actor that works through agent sessions (`agentSessions.*`) and holds no role, only the grants given to it (`grants.create`). ' +
      'Without `approvalPolicy`, its actions that need `manage`, and every `tasks.delete`, wait for a person to approve them. Emits `agent.created`.',
    update:
      'Renames the agent, or changes its description or approval policy. Emits `agent.updated` with the changes.',
  },
  examples: agentExamples,
  handlers: {
    list: (ctx, _p, query) => listAgents(ctx, query),
    get: (ctx, p) => requireAgent(ctx, p.agentId as AgentId),
    create: (ctx, _p, body) => createAgent(ctx, body as Parameters<typeof createAgent>[1]),
    update: (ctx, p, body) =>
      updateAgent(ctx, p.agentId as AgentId, body as Parameters<typeof updateAgent>[2]),
  },
})

const agentPath = '/v1/orgs/{orgId}/agents/{agentId}'
const agentLifecycle: AnyOperation[] = (['deactivate', 'reactivate'] as const).map((action) =>
  declareOperation({
    id: `agents.${action}`,
    method: 'POST',
    path: `${agentPath}/${action}`,
    tag: 'Agents',
    scope: 'work:write',
    capability: 'manage',
    summary: `${action === 'deactivate' ? 'Deactivate' : 'Reactivate'} an agent`,
    description:
      action === 'deactivate'
        ? 'A deactivated agent can neither start sessions nor act in running ones (409 `agent_inactive`); its grants and sessions stay. Emits `agent.deactivated`.'
        : 'Lets a deactivated agent start sessions and act again, with the grants it kept. Emits `agent.reactivated`.',
    params: obj(paramsOf(agentPath)),
    response: Agent,
    status: 200,
    errors: ['not_found'],
    precondition: 'agents.get',
    examples: agentExamples[action],
    run: (ctx, { params }) =>
      updateAgent(
        ctx,
        params.agentId as AgentId,
        { status: action === 'deactivate' ? 'deactivated' : 'active' },
        `agent.${action}d`,
      ),
  }),
)

const sessionsPath = '/v1/orgs/{orgId}/agent-sessions'
const sessionPath = `${sessionsPath}/{agentSessionId}`
const sessionParams = obj({ ...paramsOf('/v1/orgs/{orgId}'), agentSessionId: IdSchema('AgentSessionId') })
const sid = (params: Record<string, unknown>) => params.agentSessionId as AgentSessionId

const ActionResult = Type.Object(
  {
    outcome: StringEnum(['executed', 'pending_approval'] as const),
    result: Type.Optional(
      AnyJson("What the operation returned, when it ran; its response schema is the operation's own."),
    ),
    approvalRequest: Type.Optional(ApprovalRequest),
  },
  { $id: 'AgentActionResult', additionalProperties: false },
)

const sessionOperations: AnyOperation[] = [
  declareOperation({
    id: 'agentSessions.create',
    method: 'POST',
    path: sessionsPath,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: 'Start an agent work session',
    requires: '`contribute` on the task named by `taskId`, or on the workspace for a session on no task',
    description: 'For an active agent, on a task (needs `contribute` on it) or on no task.',
    params: obj(paramsOf(sessionsPath)),
    body: obj({
      agentId: IdSchema('AgentId'),
      taskId: Type.Optional(IdSchema('TaskId')),
      title: Type.Optional(Type.String({ maxLength: 500 })),
    }),
    response: AgentSession,
    status: 201,
    errors: ['not_found', 'agent_inactive', 'reference_not_found'],
    location: 'agentSessions.get',
    examples: sessionExamples.create,
    run: (ctx, { body }) => startSession(ctx, body),
  }),
  declareOperation({
    id: 'agentSessions.list',
    method: 'GET',
    path: sessionsPath,
    tag: 'Agent sessions',
    scope: 'work:read',
    summary: 'List agent work sessions',
    description: 'Sessions on tasks you cannot view are left out.',
    params: obj(paramsOf(sessionsPath)),
    query: obj({
      ...PageQuery,
      agentId: Type.Optional(IdSchema('AgentId')),
      taskId: Type.Optional(IdSchema('TaskId')),
      state: Type.Optional(StringEnum(SESSION_STATES)),
    }),
    response: PageOf(AgentSession, 'AgentSession'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: sessionExamples.list,
    run: (ctx, { query }) => listSessions(ctx, query),
  }),
  declareOperation({
    id: 'agentSessions.get',
    method: 'GET',
    path: sessionPath,
    tag: 'Agent sessions',
    scope: 'work:read',
    summary: 'Get an agent work session',
    description:
      'One session: its agent, task, state, the person driving it, its title, external URL and plan. A session on a task the caller cannot view is a 404.',
    params: sessionParams,
    response: AgentSession,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: sessionExamples.get,
    run: (ctx, { params }) => requireSession(ctx, sid(params)),
  }),
  declareOperation({
    id: 'agentSessions.update',
    method: 'PATCH',
    path: sessionPath,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: "Set a session's title, external URL and plan",
    requires: 'only the person who started the session (403 `capability_required` for anyone else)',
    description:
      "By the person driving it, while it runs: the title, a link to the agent's own view of the run, and the current plan.",
    params: sessionParams,
    body: Type.Object(
      {
        title: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
        externalUrl: Type.Optional(Nullable(Type.String({ format: 'uri', maxLength: 2000 }))),
        planSummary: Type.Optional(Nullable(Type.String({ maxLength: 5000 }), 'Markdown.')),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: AgentSession,
    status: 200,
    errors: ['not_found', 'session_closed', 'precondition_failed'],
    precondition: 'agentSessions.get',
    examples: updateSessionExample,
    run: (ctx, { params, body }) =>
      updateSession(ctx, sid(params), body as Parameters<typeof updateSession>[2]),
  }),
  declareOperation({
    id: 'agentSessions.prompt',
    method: 'POST',
    path: `${sessionPath}/prompts`,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: 'Send a session a follow-up instruction',
    requires: "`contribute` on the session's task, or on the workspace for a session on no task",
    description:
      "Anyone with `contribute` on the session's task (on the org, for a session without one). It is written to the log as a `prompt`; a session not yet started becomes active.",
    params: sessionParams,
    body: obj({ content: Type.String({ minLength: 1, maxLength: 20_000, description: 'Markdown.' }) }),
    response: AgentActivity,
    status: 201,
    errors: ['not_found', 'session_closed'],
    examples: promptExample,
    run: (ctx, { params, body }) => promptSession(ctx, sid(params), body.content),
  }),
  declareOperation({
    id: 'agentSessions.cancel',
    method: 'POST',
    path: `${sessionPath}/cancel`,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: 'Cancel an agent work session',
    requires:
      'the person who started the session, or `manage` on its task (on the workspace for a session on no task)',
    description: 'By the person who started it, or someone with `manage` on its task.',
    params: sessionParams,
    response: AgentSession,
    status: 200,
    errors: ['not_found'],
    examples: sessionExamples.cancel,
    run: (ctx, { params }) => cancelSession(ctx, sid(params)),
  }),
  declareOperation({
    id: 'agentSessions.finish',
    method: 'POST',
    path: `${sessionPath}/finish`,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: 'Finish an agent work session',
    requires: 'only the person who started the session (403 `capability_required` for anyone else)',
    description: 'The agent reports the outcome; the session ends.',
    params: sessionParams,
    body: obj({ outcome: StringEnum(['completed', 'failed'] as const) }),
    response: AgentSession,
    status: 200,
    errors: ['not_found', 'session_closed'],
    examples: sessionExamples.finish,
    run: (ctx, { params, body }) => finishSession(ctx, sid(params), body.outcome),
  }),
  declareOperation({
    id: 'agentSessions.activities.list',
    method: 'GET',
    path: `${sessionPath}/activities`,
    tag: 'Agent sessions',
    scope: 'work:read',
    summary: "Read a session's activity log",
    description: 'Append-only, oldest first. Anyone who can view the task reads it.',
    params: sessionParams,
    query: obj(PageQuery),
    response: PageOf(AgentActivity, 'AgentActivity'),
    status: 200,
    errors: ['not_found', 'invalid_cursor'],
    examples: sessionExamples.activities,
    run: (ctx, { params, query }) => listActivities(ctx, sid(params), query),
  }),
  declareOperation({
    id: 'agentSessions.activities.create',
    method: 'POST',
    path: `${sessionPath}/activities`,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: "Write to a session's activity log",
    requires: 'only the person who started the session (403 `capability_required` for anyone else)',
    description: 'A thought, an action, a response or an error of the agent.',
    params: sessionParams,
    body: obj({
      kind: StringEnum(AGENT_ACTIVITY_KINDS),
      content: Type.String({ maxLength: 20_000 }),
      data: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
    }),
    response: AgentActivity,
    status: 201,
    errors: ['not_found', 'session_closed'],
    examples: sessionExamples.activity,
    run: (ctx, { params, body }) => appendActivity(ctx, sid(params), body),
  }),
  declareOperation({
    id: 'agentSessions.act',
    method: 'POST',
    path: `${sessionPath}/actions`,
    tag: 'Agent sessions',
    scope: 'agents:run',
    summary: 'Act as the agent',
    requires:
      'only the person who started the session; the agent and that person must both hold the capability the operation needs, and the token its scope',
    description:
      "Runs a Teams, Workflow states or Tasks operation as the session's agent (any other is 422 `rule_violated`), and answers with that operation's problem when it fails. The agent and the person driving the session must both hold the capability it needs, and the person's token its scope. An action the agent's approval policy, or an approval policy on a container holding its target, gates becomes a pending approval request instead, and changes nothing else.",
    params: sessionParams,
    body: obj({
      operationId: Type.String({
        pattern: '^[a-zA-Z]+(\\.[a-zA-Z]+)+$',
        description: 'Such as `tasks.update`.',
      }),
      params: Type.Optional(
        Type.Object(
          {},
          { additionalProperties: true, description: "Path parameters; `orgId` is the session's." },
        ),
      ),
      query: Type.Optional(Type.Object({}, { additionalProperties: true })),
      body: Type.Optional(AnyJson('The request body of the operation, if it takes one.')),
    }),
    response: ActionResult,
    status: 200,
    errors: [
      'not_found',
      'session_closed',
      'agent_inactive',
      'capability_required',
      'reference_not_found',
      'rule_violated',
    ],
    examples: sessionExamples.act,
    run: (ctx, { params, body }) => act(ctx, sid(params), body),
  }),
]

export const agentsCatalogue: AnyOperation[] = [
  ...agentOperations,
  ...agentLifecycle,
  ...sessionOperations,
  ...approvalOperations,
  ...policyOperations,
]
