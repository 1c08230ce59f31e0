import type { UserId } from '@workgraph/core'
import type { User, UserRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function userRepo(db: Kysely<Database>): UserRepo {
  const toUser = (r: { id: string; email: string; name: string; createdAt: Date | string }): User => ({
    id: r.id as UserId,
    email: r.email,
    name: r.name,
    createdAt: iso(r.createdAt),
  })
  return {
    async insert(user) {
      await db
        .insertInto('users')
        .values({ ...user, email: user.email.toLowerCase() })
        .execute()
    },
    async get(id) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
      return row ? toUser(row) : null
    },
    async getByEmail(email) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst()
      return row ? toUser(row) : null
    },
  }
}
