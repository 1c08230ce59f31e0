import {
  createEngine,
  createUser,
  type Engine,
  type EngineSettings,
  newId,
  type OrgId,
  type Principal,
} from '@workgraph/core'
import type { Storage, User } from '@workgraph/core/storage'
import { type KyselyStorage, openStorage } from '@workgraph/kysely'
import type { TestDatabase } from './databases.ts'

export interface TestEngine {
  engine: Engine
  storage: KyselyStorage
  close(): Promise<void>
}

/** An engine on a fresh database (new SQLite file or new Postgres schema), migrated. */
export async function createTestEngine(db: TestDatabase, config: EngineSettings = {}): Promise<TestEngine> {
  const target = await db.fresh()
  const storage = await openStorage({ url: target.url, ...(target.schema ? { schema: target.schema } : {}) })
  const engine = await createEngine({ storage, config: { baseUrl: 'http://workgraph.test', ...config } })
  return {
    engine,
    storage,
    async close() {
      await storage.close()
      await target.drop()
    },
  }
}

let counter = 0

export interface TestPerson {
  user: User
  token: string
  principal: Principal
}

/** A new account with a token from core's token service (the OAuth flow arrives with its own issue). */
export async function newPerson(
  engine: Engine,
  options: { name?: string; scopes?: string[] } = {},
): Promise<TestPerson> {
  const n = ++counter
  const user = await createUser(engine.storage, {
    email: `person${n}.${Date.now()}@example.com`,
    name: options.name ?? `Person ${n}`,
  })
  const token = await engine.tokens.issueAccessToken({
    userId: user.id,
    scopes: options.scopes ?? ['work:read', 'work:write'],
  })
  return { user, token, principal: await engine.tokens.verifyAccessToken(token) }
}

/** Runs an operation and returns its body, loosely typed for assertions. */
export async function exec(t: TestEngine, ...args: Parameters<Engine['execute']>): Promise<any> {
  return (await t.engine.execute(...args)).body
}

/** An org row and nothing else (no owner, no teams), for storage tests below the engine. */
export async function insertBareOrg(storage: Storage): Promise<OrgId> {
  const orgId = newId('OrgId')
  const at = new Date().toISOString()
  await storage.transaction((s) =>
    s.orgs.insert({
      id: orgId,
      name: 'O',
      slug: orgId.toLowerCase(),
      createdAt: at,
      updatedAt: at,
      archivedAt: null,
    }),
  )
  return orgId
}
