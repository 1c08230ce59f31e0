import type {
  ActivityId,
  Agent,
  AgentActivity,
  AgentId,
  AgentSession,
  AgentSessionId,
  ApprovalRequest,
  MemberId,
  OrgId,
  ReadScope,
  TaskId,
} from '@workgraph/core'
import type { AgentRepo, ApprovalRepo, SessionRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'

type Row<T> = { [K in keyof T]: unknown }

function toAgent(r: Row<Database['agents']>): Agent {
  return {
    id: r.id as AgentId,
    orgId: r.orgId as OrgId,
    kind: 'agent',
    name: r.name as string,
    description: r.description as string | null,
    status: r.status as Agent['status'],
    approvalPolicy: json(r.approvalPolicy),
    createdBy: r.createdBy as MemberId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

export function agentRepo(db: Kysely<Database>): AgentRepo {
  return {
    async insert(agent) {
      const { kind: _kind, ...row } = agent
      await db
        .insertInto('agents')
        .values({ ...row, approvalPolicy: JSON.stringify(agent.approvalPolicy) })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('agents')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toAgent(row) : null
    },
    async list(orgId, filter, page) {
      let q = db.selectFrom('agents').selectAll().where('orgId', '=', orgId)
      if (filter.status) q = q.where('status', '=', filter.status)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toAgent)
    },
    async update(orgId, id, patch) {
      const { approvalPolicy, ...rest } = patch
      await db
        .updateTable('agents')
        .set({ ...rest, ...(approvalPolicy ? { approvalPolicy: JSON.stringify(approvalPolicy) } : {}) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
  }
}

function toSession(r: Row<Database['agentSessions']>): AgentSession {
  return {
    id: r.id as AgentSessionId,
    orgId: r.orgId as OrgId,
    agentId: r.agentId as AgentId,
    taskId: r.taskId as TaskId | null,
    title: r.title as string | null,
    externalUrl: (r.externalUrl as string | null) ?? null,
    planSummary: (r.planSummary as string | null) ?? null,
    state: r.state as AgentSession['state'],
    startedBy: r.startedBy as MemberId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    endedAt: isoOrNull(r.endedAt as string | null),
  }
}

function toActivity(r: Row<Database['agentActivities']>): AgentActivity {
  return {
    id: r.id as ActivityId,
    sessionId: r.sessionId as AgentSessionId,
    seq: Number(r.seq),
    kind: r.kind as AgentActivity['kind'],
    content: r.content as string,
    data: r.data === null ? null : json(r.data),
    createdAt: iso(r.createdAt as string),
  }
}

/** Sessions the scope can view: one on a task is as visible as its task; one without, to every member. */
function visibleSessions(db: Kysely<Database>, orgId: OrgId, scope: ReadScope) {
  const q = db.selectFrom('agentSessions').where('agentSessions.orgId', '=', orgId)
  if (scope.orgWide) return q
  const visibleTasks = db
    .selectFrom('tasks')
    .select('tasks.id')
    .where('tasks.orgId', '=', orgId)
    .where((eb) => visibleTask(eb, 'tasks', scope))
  return q.where((eb) =>
    eb.or([eb('agentSessions.taskId', 'is', null), eb('agentSessions.taskId', 'in', visibleTasks)]),
  )
}

export function sessionRepo(db: Kysely<Database>): SessionRepo {
  const scoped = (orgId: OrgId, scope: ReadScope) => visibleSessions(db, orgId, scope).selectAll()
  return {
    async insert(session) {
      await db
        .insertInto('agentSessions')
        .values({ ...session, lastActivitySeq: 0 })
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await scoped(orgId, scope).where('id', '=', id).executeTakeFirst()
      return row ? toSession(row) : null
    },
    async list(orgId, filter, page, scope) {
      let q = scoped(orgId, scope)
      if (filter.agentId) q = q.where('agentId', '=', filter.agentId)
      if (filter.taskId) q = q.where('taskId', '=', filter.taskId)
      if (filter.state) q = q.where('state', '=', filter.state)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toSession)
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('agentSessions')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async appendActivity(orgId, activity) {
      const { lastActivitySeq } = await db
        .updateTable('agentSessions')
        .set({ lastActivitySeq: sql<number>`last_activity_seq + 1` })
        .where('orgId', '=', orgId)
        .where('id', '=', activity.sessionId)
        .returning('lastActivitySeq')
        .executeTakeFirstOrThrow()
      const stored: AgentActivity = { ...activity, seq: Number(lastActivitySeq) }
      await db
        .insertInto('agentActivities')
        .values({ ...stored, orgId, data: stored.data === null ? null : JSON.stringify(stored.data) })
        .execute()
      return stored
    },
    async listActivities(orgId, sessionId, afterSeq, limit) {
      const rows = await db
        .selectFrom('agentActivities')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('sessionId', '=', sessionId)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute()
      return rows.map(toActivity)
    },
  }
}

function toApproval(r: Row<Database['approvalRequests']>): ApprovalRequest {
  return {
    id: r.id as ApprovalRequest['id'],
    orgId: r.orgId as OrgId,
    agentId: r.agentId as AgentId,
    sessionId: r.sessionId as AgentSessionId,
    operationId: r.operationId as string,
    input: json(r.input),
    capability: r.capability as ApprovalRequest['capability'],
    policyId: (r.policyId as ApprovalRequest['policyId']) ?? null,
    policyVersion: r.policyVersion === null || r.policyVersion === undefined ? null : Number(r.policyVersion),
    approverCapability: (r.approverCapability as ApprovalRequest['approverCapability']) ?? null,
    state: r.state as ApprovalRequest['state'],
    proposedBy: r.proposedBy as MemberId,
    createdAt: iso(r.createdAt as string),
    expiresAt: iso(r.expiresAt as string),
    decidedBy: r.decidedBy as MemberId | null,
    decidedAt: isoOrNull(r.decidedAt as string | null),
    reason: r.reason as string | null,
    result: r.result === null || r.result === undefined ? null : json(r.result),
  }
}

export function approvalRepo(db: Kysely<Database>): ApprovalRepo {
  return {
    async insert(request) {
      await db
        .insertInto('approvalRequests')
        .values({
          ...request,
          input: JSON.stringify(request.input),
          result: request.result === null ? null : JSON.stringify(request.result),
        })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('approvalRequests')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toApproval(row) : null
    },
    async list(orgId, filter, page, scope) {
      let q = db.selectFrom('approvalRequests').selectAll().where('orgId', '=', orgId)
      if (!scope.orgWide)
        q = q.where('sessionId', 'in', visibleSessions(db, orgId, scope).select('agentSessions.id'))
      if (filter.state) q = q.where('state', '=', filter.state)
      if (filter.sessionId) q = q.where('sessionId', '=', filter.sessionId)
      if (filter.expiresAfter) q = q.where('expiresAt', '>', filter.expiresAfter)
      if (filter.expiredBy) q = q.where('expiresAt', '<=', filter.expiredBy)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toApproval)
    },
    async decide(orgId, id, decision) {
      const result = await db
        .updateTable('approvalRequests')
        .set({
          ...decision,
          result:
            decision.result === null || decision.result === undefined
              ? null
              : JSON.stringify(decision.result),
        })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}
