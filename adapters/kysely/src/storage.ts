import { ProblemError } from '@workgraph/core'
import type { Storage, Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { accessRepo, invitationRepo } from './access/access.ts'
import { agentRepo, approvalRepo, sessionRepo } from './agents/agents.ts'
import { commentRepo } from './comments/comments.ts'
import { reactionRepo } from './comments/reactions.ts'
import { type ConnectOptions, connect } from './connect.ts'
import { cycleRepo } from './cycles/cycles.ts'
import { eventRepo } from './kernel/events.ts'
import { idempotencyRepo, secretRepo, userRepo } from './kernel/idempotency.ts'
import { lockRepo } from './kernel/locks.ts'
import { labelRepo } from './labels/labels.ts'
import { migrateToLatest } from './migrations/index.ts'
import { oauthRepo } from './oauth/oauth.ts'
import { memberRepo, orgRepo } from './orgs/orgs.ts'
import type { Database, Dialect } from './schema.ts'
import { taskDependencyRepo } from './tasks/dependencies.ts'
import { taskHistoryRepo } from './tasks/history.ts'
import { taskKeyRepo } from './tasks/keys.ts'
import { taskLinkRepo } from './tasks/links.ts'
import { taskRelationRepo } from './tasks/relations.ts'
import { taskSubscriberRepo } from './tasks/subscribers.ts'
import { taskRepo } from './tasks/tasks.ts'
import { stateRepo, teamRepo } from './teams/teams.ts'

export interface KyselyStorage extends Storage {
  readonly db: Kysely<Database>
}

function storeOn(db: Kysely<Database>, dialect: Dialect): Store {
  return {
    locks: lockRepo(db, dialect),
    users: userRepo(db),
    orgs: orgRepo(db),
    members: memberRepo(db),
    teams: teamRepo(db),
    states: stateRepo(db),
    tasks: taskRepo(db),
    events: eventRepo(db),
    idempotency: idempotencyRepo(db),
    secrets: secretRepo(db),
    oauth: oauthRepo(db),
    access: accessRepo(db),
    invitations: invitationRepo(db),
    agents: agentRepo(db),
    sessions: sessionRepo(db),
    approvals: approvalRepo(db),
    cycles: cycleRepo(db),
    labels: labelRepo(db),
    comments: commentRepo(db),
    reactions: reactionRepo(db),
    taskHistory: taskHistoryRepo(db),
    taskDependencies: taskDependencyRepo(db),
    taskRelations: taskRelationRepo(db),
    taskKeys: taskKeyRepo(db),
    taskSubscribers: taskSubscriberRepo(db),
    taskLinks: taskLinkRepo(db),
  }
}

/** The storage interface over an open Kysely instance; the dialect is explicit, never guessed. */
export function createKyselyStorage(options: {
  db: Kysely<Database>
  dialect: Dialect
  onClose?: () => Promise<void>
}): KyselyStorage {
  const { db, dialect } = options
  const root = storeOn(db, dialect)
  return {
    db,
    dialect,
    async transaction(fn) {
      try {
        return await db.transaction().execute((trx) => fn(storeOn(trx, dialect)))
      } catch (error) {
        throw translate(error)
      }
    },
    async read(fn) {
      try {
        return await fn(root)
      } catch (error) {
        throw translate(error)
      }
    },
    async close() {
      await db.destroy()
      await options.onClose?.()
    },
  }
}

/** Connects, migrates to the latest schema, and returns the storage. */
export async function openStorage(options: ConnectOptions): Promise<KyselyStorage> {
  const { db, dialect } = await connect(options)
  await migrateToLatest(
    db,
    dialect,
    dialect === 'postgres' && options.schema ? { schema: options.schema } : {},
  )
  return createKyselyStorage({ db, dialect })
}

/** A unique violation that a service's own check did not catch is a lost race: a 409, never a 500. */
function translate(error: unknown): unknown {
  const code = (error as { code?: string } | null)?.code
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new ProblemError('conflict', 'A concurrent request changed the same record; retry.')
  }
  return error
}
