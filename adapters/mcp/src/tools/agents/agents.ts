import { Type } from '@sinclair/typebox'
import { IdSchema } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, TaskRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

const AgentSessionId = IdSchema('AgentSessionId', 'An agent session id.')
const ApprovalRequestId = IdSchema('ApprovalRequestId', 'An approval request id.')

const session = (s: any) => ({
  id: s.id,
  agentId: s.agentId,
  taskId: s.taskId,
  state: s.state,
  title: s.title,
})
const approval = (a: any) => ({
  id: a.id,
  state: a.state,
  operationId: a.operationId,
  sessionId: a.sessionId,
  createdAt: a.createdAt,
})

export const agentTools: ToolDefinition[] = [
  {
    name: 'list_agents',
    title: 'List agents',
    description: 'AI agents of a workspace, with status.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['agents.list'],
    input: object({ workspace: Workspace, cursor: Cursor, limit: Limit }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const page = await call.run('agents.list', {
        params: { orgId: org.id },
        query: { limit: args.limit ?? 25, ...(args.cursor ? { cursor: args.cursor } : {}) },
      })
      return {
        agents: page.data.map((a: any) => ({ id: a.id, name: a.name, status: a.status })),
        nextCursor: page.nextCursor,
      }
    },
  },
  {
    name: 'start_agent_session',
    title: 'Start an agent session',
    description: 'Starts a session for an agent, optionally on a task; you drive it.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['agentSessions.create', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        agent: Type.String({ minLength: 1, maxLength: 120, description: 'Agent name or id.' }),
        task: Type.Optional(TaskRef),
        title: Type.Optional(fieldOf('agentSessions.create', 'body', 'title')),
      },
      ['agent'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const body = {
        agentId: await call.resolve(org.id, 'agent', args.agent),
        ...(args.task ? { taskId: await call.resolve(org.id, 'task', args.task) } : {}),
        ...(args.title ? { title: args.title } : {}),
      }
      return session(await call.run('agentSessions.create', { params: { orgId: org.id }, body }))
    },
  },
  {
    name: 'cancel_agent_session',
    title: 'Cancel an agent session',
    description: 'Cancels a running agent session.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: ['agentSessions.cancel'],
    input: object({ workspace: Workspace, session: AgentSessionId }, ['session']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      return session(
        await call.run('agentSessions.cancel', { params: { orgId: org.id, agentSessionId: args.session } }),
      )
    },
  },
  {
    name: 'list_approvals',
    title: 'List approval requests',
    description: 'Actions agents proposed that wait for (or got) a decision, newest first.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['approvalRequests.list'],
    input: object({
      workspace: Workspace,
      state: Type.Optional(fieldOf('approvalRequests.list', 'query', 'state')),
      cursor: Cursor,
      limit: Limit,
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const page = await call.run('approvalRequests.list', {
        params: { orgId: org.id },
        query: {
          limit: args.limit ?? 25,
          ...(args.state ? { state: args.state } : {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
      return { approvals: page.data.map(approval), nextCursor: page.nextCursor }
    },
  },
  {
    name: 'decide_approval',
    title: 'Approve or reject an agent action',
    description:
      'Approves (the action runs as the agent), rejects, sends back with feedback (`request_changes`), or `cancel`s an approval request.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'approvalRequests.approve',
      'approvalRequests.reject',
      'approvalRequests.requestChanges',
      'approvalRequests.cancel',
    ],
    input: object(
      {
        workspace: Workspace,
        approval: ApprovalRequestId,
        decision: Type.String({ enum: ['approve', 'reject', 'request_changes', 'cancel'] }),
        reason: Type.Optional(
          Type.String({
            maxLength: 2000,
            description: 'Why; the feedback itself for `request_changes` (required there).',
          }),
        ),
      },
      ['approval', 'decision'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const params = { orgId: org.id, approvalRequestId: args.approval }
      const reason = args.reason ? { reason: args.reason } : {}
      const result =
        args.decision === 'approve'
          ? await call.run('approvalRequests.approve', { params })
          : args.decision === 'request_changes'
            ? await call.run('approvalRequests.requestChanges', {
                params,
                body: { feedback: args.reason ?? '' },
              })
            : await call.run(
                args.decision === 'cancel' ? 'approvalRequests.cancel' : 'approvalRequests.reject',
                {
                  params,
                  body: reason,
                },
              )
      return approval(result)
    },
  },
]
