import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { agentRepo, approvalRepo, sessionRepo } from './agents.ts'
import { approvalPolicyRepo } from './policies.ts'

/** Agents, their sessions, approval requests and approval policies. */
export const agentsStore = (db: Kysely<Database>) =>
  ({
    agents: agentRepo(db),
    sessions: sessionRepo(db),
    approvals: approvalRepo(db),
    approvalPolicies: approvalPolicyRepo(db),
  }) satisfies Partial<Store>
