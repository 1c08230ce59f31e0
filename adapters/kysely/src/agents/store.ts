import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { agentRepo, approvalRepo, sessionRepo } from './agents.ts'

/** Agents, their sessions and approval requests. */
export const agentsStore = (db: Kysely<Database>) =>
  ({
    agents: agentRepo(db),
    sessions: sessionRepo(db),
    approvals: approvalRepo(db),
  }) satisfies Partial<Store>
