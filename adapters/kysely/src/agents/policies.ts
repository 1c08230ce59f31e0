import type { AgentId, ApprovalPolicyId, ContainerApprovalPolicy, MemberId, OrgId } from '@workgraph/core'
import type { ApprovalPolicyRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = { [K in keyof Database['approvalPolicies']]: unknown }

function toPolicy(r: Row): ContainerApprovalPolicy {
  return {
    id: r.id as ApprovalPolicyId,
    orgId: r.orgId as OrgId,
    containerType: r.containerType as ContainerApprovalPolicy['containerType'],
    containerId: r.containerId as string,
    operations: json(r.operations),
    capabilities: json(r.capabilities),
    agentIds: json<AgentId[]>(r.agentIds),
    approverCapability: r.approverCapability as ContainerApprovalPolicy['approverCapability'],
    version: Number(r.version),
    createdBy: r.createdBy as MemberId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

const LISTS = ['operations', 'capabilities', 'agentIds'] as const

export function approvalPolicyRepo(db: Kysely<Database>): ApprovalPolicyRepo {
  return {
    async insert(policy) {
      await db
        .insertInto('approvalPolicies')
        .values({
          ...policy,
          operations: JSON.stringify(policy.operations),
          capabilities: JSON.stringify(policy.capabilities),
          agentIds: JSON.stringify(policy.agentIds),
        })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('approvalPolicies')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toPolicy(row) : null
    },
    async list(orgId, filter, page) {
      let q = db.selectFrom('approvalPolicies').selectAll().where('orgId', '=', orgId)
      if (filter.containerType) q = q.where('containerType', '=', filter.containerType)
      if (filter.containerId) q = q.where('containerId', '=', filter.containerId)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toPolicy)
    },
    async onContainers(orgId, containers) {
      if (containers.length === 0) return []
      const rows = await db
        .selectFrom('approvalPolicies')
        .selectAll()
        .where('orgId', '=', orgId)
        .where((eb) =>
          eb.or(
            containers.map((c) => eb.and([eb('containerType', '=', c.type), eb('containerId', '=', c.id)])),
          ),
        )
        .orderBy('id')
        .execute()
      return rows.map(toPolicy)
    },
    async update(orgId, id, patch) {
      const set: Record<string, unknown> = { ...patch }
      for (const key of LISTS) if (patch[key]) set[key] = JSON.stringify(patch[key])
      await db
        .updateTable('approvalPolicies')
        .set(set)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('approvalPolicies').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
  }
}
