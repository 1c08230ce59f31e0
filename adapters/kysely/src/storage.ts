import { ProblemError, type Storage, type Store } from '@workgraph/core'
import type { Kysely } from 'kysely'
import { type ConnectOptions, connect } from './connect.ts'
import { migrateToLatest } from './migrations/index.ts'
import { accessRepo, invitationRepo } from './repos/access.ts'
import { idempotencyRepo, secretRepo, userRepo } from './repos/accounts.ts'
import { agentRepo, approvalRepo, sessionRepo } from './repos/agents.ts'
import { commentRepo } from './repos/comments.ts'
import { cycleRepo } from './repos/cycles.ts'
import { eventRepo } from './repos/events.ts'
import { labelRepo } from './repos/labels.ts'
import { lockRepo } from './repos/locks.ts'
import { oauthRepo } from './repos/oauth.ts'
import { memberRepo, orgRepo } from './repos/orgs.ts'
import { reactionRepo } from './repos/reactions.ts'
import { taskDependencyRepo } from './repos/task-dependencies.ts'
import { taskHistoryRepo } from './repos/task-history.ts'
import { taskKeyRepo } from './repos/task-keys.ts'
import { taskLinkRepo } from './repos/task-links.ts'
import { taskRelationRepo } from './repos/task-relations.ts'
import { taskSubscriberRepo } from './repos/task-subscribers.ts'
import { taskRepo } from './repos/tasks.ts'
import { stateRepo, teamRepo } from './repos/teams.ts'
import type { Database, Dialect } from './schema.ts'

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
