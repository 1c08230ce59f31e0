import type { ConsentId } from '@workgraph/core'
import type { AccountTokenRecord, OAuthStore } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { inLists } from '../in-list.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'
import {
  type OAuthTables,
  type RevokedAccessTokensTable,
  toClient,
  toCode,
  toConsent,
  toGrant,
  toRefresh,
  toSession,
} from './rows.ts'

export function oauthRepo(database: Kysely<Database>): OAuthStore {
  const db = database as unknown as Kysely<OAuthTables & RevokedAccessTokensTable>
  return {
    async getPasswordHash(userId) {
      const row = await db
        .selectFrom('userPasswords')
        .select('hash')
        .where('userId', '=', userId)
        .executeTakeFirst()
      return row?.hash ?? null
    },
    async setPasswordHash(userId, hash, at) {
      await db
        .insertInto('userPasswords')
        .values({ userId, hash, updatedAt: at })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ hash, updatedAt: at }))
        .execute()
    },

    async insertSession(session) {
      await db.insertInto('webSessions').values(session).execute()
    },
    async findSession(tokenHash, now) {
      const row = await db
        .selectFrom('webSessions')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('expiresAt', '>', now)
        .executeTakeFirst()
      return row ? toSession(row) : null
    },
    async listSessions(userId, now) {
      const rows = await db
        .selectFrom('webSessions')
        .selectAll()
        .where('userId', '=', userId)
        .where('expiresAt', '>', now)
        .orderBy('id')
        .limit(200)
        .execute()
      return rows.map(toSession)
    },
    async deleteSession(userId, id) {
      const r = await db
        .deleteFrom('webSessions')
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
    async deleteSessionByHash(tokenHash) {
      await db.deleteFrom('webSessions').where('tokenHash', '=', tokenHash).execute()
    },
    async deleteSessionsOf(userId) {
      await db.deleteFrom('webSessions').where('userId', '=', userId).execute()
    },
    async deleteSessionsExcept(userId, keep) {
      const result = await db
        .deleteFrom('webSessions')
        .where('userId', '=', userId)
        .where('id', '!=', keep)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },

    async insertAccountToken(record, now) {
      await db.deleteFrom('accountTokens').where('expiresAt', '<=', now).execute()
      await db.insertInto('accountTokens').values(record).execute()
    },
    async takeAccountToken(tokenHash, purpose, now) {
      // One statement, so two clicks on one link cannot both use it.
      const row = await db
        .deleteFrom('accountTokens')
        .where('tokenHash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('expiresAt', '>', now)
        .returningAll()
        .executeTakeFirst()
      return row
        ? {
            ...row,
            purpose: row.purpose as AccountTokenRecord['purpose'],
            createdAt: iso(row.createdAt),
            expiresAt: iso(row.expiresAt),
          }
        : null
    },

    async insertClient(client) {
      await db
        .insertInto('oauthClients')
        .values({
          ...client,
          redirectUris: JSON.stringify(client.redirectUris),
          grantTypes: JSON.stringify(client.grantTypes),
        })
        .execute()
    },
    async getClient(id) {
      const row = await db.selectFrom('oauthClients').selectAll().where('id', '=', id).executeTakeFirst()
      return row ? toClient(row) : null
    },
    async countClients() {
      const row = await db
        .selectFrom('oauthClients')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    async getGrant(userId, clientId) {
      const row = await db
        .selectFrom('oauthConsents')
        .selectAll()
        .where('userId', '=', userId)
        .where('clientId', '=', clientId)
        .executeTakeFirst()
      return row ? toGrant(row) : null
    },
    async grantIsLive(id) {
      const row = await db.selectFrom('oauthConsents').select('id').where('id', '=', id).executeTakeFirst()
      return row !== undefined
    },
    async accessTokenIsLive(jti, grantId) {
      // One round trip on every authenticated request: the consent exists and the jti is not denied.
      const query = compiledOnce(
        db,
        `oauth.accessTokenIsLive:${grantId === null ? 'token' : 'consent'}`,
        grantId === null ? [jti] : [jti, grantId],
        ([jtiArg, grantArg]) =>
          db.selectNoFrom((eb) => [
            grantArg === undefined
              ? sql<number>`1`.as('grantLive')
              : eb
                  .exists(eb.selectFrom('oauthConsents').select('id').where('id', '=', grantArg))
                  .as('grantLive'),
            eb
              .exists(eb.selectFrom('revokedAccessTokens').select('jti').where('jti', '=', jtiArg!))
              .as('revoked'),
          ]),
      )
      const row = (await runCompiled(db, query))[0]!
      return Boolean(Number(row.grantLive)) && !Number(row.revoked)
    },
    async credentialStates(grantIds, jtis) {
      const liveGrants = new Set<ConsentId>()
      const revokedJtis = new Set<string>()
      const grantLists = inLists([...new Set(grantIds)])
      const jtiLists = inLists([...new Set(jtis)])
      // One statement per pair of lists (one in all for up to 256 of each): the consents that exist
      // and the jtis that are revoked, told apart by `kind`.
      for (let i = 0; i < Math.max(grantLists.length, jtiLists.length); i++) {
        const grants = grantLists[i] ?? []
        const revoked = jtiLists[i] ?? []
        const query = compiledOnce(
          db,
          `oauth.credentialStates:${grants.length}:${revoked.length}`,
          [...grants, ...revoked],
          (args) => {
            const consents = (ids: readonly string[]) =>
              db
                .selectFrom('oauthConsents')
                .select([sql<string>`'grant'`.as('kind'), 'id'])
                .where('id', 'in', ids)
            const denied = (ids: readonly string[]) =>
              db
                .selectFrom('revokedAccessTokens')
                .select([sql<string>`'jti'`.as('kind'), 'jti as id'])
                .where('jti', 'in', ids)
            const g = args.slice(0, grants.length)
            const j = args.slice(grants.length)
            if (g.length === 0) return denied(j)
            return j.length === 0 ? consents(g) : consents(g).unionAll(denied(j))
          },
        )
        for (const row of await runCompiled(db, query)) {
          if (row.kind === 'grant') liveGrants.add(row.id as ConsentId)
          else revokedJtis.add(row.id)
        }
      }
      return { liveGrants, revokedJtis }
    },
    async revokeAccessToken(jti, expiresAt) {
      await db
        .insertInto('revokedAccessTokens')
        .values({ jti, expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute()
    },
    async upsertGrant(grant) {
      const scopes = grant.scopes.join(' ')
      const row = await db
        .insertInto('oauthConsents')
        .values({ ...grant, scopes })
        .onConflict((oc) =>
          oc
            .columns(['userId', 'clientId'])
            .doUpdateSet({ scopes, clientName: grant.clientName, updatedAt: grant.updatedAt }),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return toGrant(row)
    },
    async listGrants(userId) {
      const rows = await db
        .selectFrom('oauthConsents')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('id')
        .limit(500)
        .execute()
      return rows.map(toConsent)
    },
    async findGrant(userId, id) {
      const row = await db
        .selectFrom('oauthConsents')
        .selectAll()
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toConsent(row) : null
    },
    async touchGrant(id, at) {
      await db.updateTable('oauthConsents').set({ lastUsedAt: at }).where('id', '=', id).execute()
    },
    async deleteGrant(id, userId) {
      let query = db.deleteFrom('oauthConsents').where('id', '=', id)
      if (userId) query = query.where('userId', '=', userId)
      const r = await query.executeTakeFirst()
      if (Number(r.numDeletedRows) === 0) return false
      await db.deleteFrom('oauthRefreshTokens').where('grantId', '=', id).execute()
      await db.deleteFrom('oauthCodes').where('grantId', '=', id).execute()
      return true
    },

    async insertCode(code) {
      await db
        .insertInto('oauthCodes')
        .values({ ...code, scopes: code.scopes.join(' ') })
        .execute()
    },
    async consumeCode(codeHash, now) {
      // The conditional update is the arbiter: one caller flips consumed_at, the rest see it set.
      const won = await db
        .updateTable('oauthCodes')
        .set({ consumedAt: now })
        .where('codeHash', '=', codeHash)
        .where('consumedAt', 'is', null)
        .returningAll()
        .executeTakeFirst()
      if (won) return { ...toCode(won), consumedAt: null }
      const row = await db
        .selectFrom('oauthCodes')
        .selectAll()
        .where('codeHash', '=', codeHash)
        .executeTakeFirst()
      return row ? toCode(row) : null
    },

    async insertRefreshToken(token) {
      await db
        .insertInto('oauthRefreshTokens')
        .values({ ...token, scopes: token.scopes.join(' ') })
        .execute()
    },
    async getRefreshToken(tokenHash) {
      const row = await db
        .selectFrom('oauthRefreshTokens')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst()
      return row ? toRefresh(row) : null
    },
    async rotateRefreshToken(tokenHash, now) {
      const r = await db
        .updateTable('oauthRefreshTokens')
        .set({ rotatedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('rotatedAt', 'is', null)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) > 0
    },
    async setRefreshReplay(tokenHash, replay) {
      await db.updateTable('oauthRefreshTokens').set({ replay }).where('tokenHash', '=', tokenHash).execute()
    },
    async deleteRefreshTokens(grantId) {
      const r = await db.deleteFrom('oauthRefreshTokens').where('grantId', '=', grantId).executeTakeFirst()
      return Number(r.numDeletedRows)
    },

    async prune(now) {
      // Each table by name, so the table-owner check can read what this folder deletes.
      const expired = [
        await db.deleteFrom('webSessions').where('expiresAt', '<', now).executeTakeFirst(),
        await db.deleteFrom('oauthCodes').where('expiresAt', '<', now).executeTakeFirst(),
        await db.deleteFrom('oauthRefreshTokens').where('expiresAt', '<', now).executeTakeFirst(),
        await db.deleteFrom('revokedAccessTokens').where('expiresAt', '<', now).executeTakeFirst(),
      ]
      return expired.reduce((n, r) => n + Number(r.numDeletedRows), 0)
    },
  }
}
