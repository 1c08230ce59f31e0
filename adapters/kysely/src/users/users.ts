import type { UserId } from '@workgraph/core'
import type { User, UserProfile, UserRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

type Row = { id: string; email: string; name: string; createdAt: Date | string }

const toUser = (r: Row): User => ({
  id: r.id as UserId,
  email: r.email,
  name: r.name,
  createdAt: iso(r.createdAt),
})

export function userRepo(db: Kysely<Database>): UserRepo {
  const user = ['id', 'email', 'name', 'createdAt'] as const
  return {
    async insert(user) {
      await db
        .insertInto('users')
        .values({ ...user, email: user.email.toLowerCase() })
        .execute()
    },
    async get(id) {
      const row = await db.selectFrom('users').select(user).where('id', '=', id).executeTakeFirst()
      return row ? toUser(row) : null
    },
    async getByEmail(email) {
      const row = await db
        .selectFrom('users')
        .select(user)
        .where('email', '=', email.trim().toLowerCase())
        .executeTakeFirst()
      return row ? toUser(row) : null
    },
    async getProfile(id) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) return null
      const profile: UserProfile = {
        ...toUser(row),
        avatarUrl: row.avatarUrl,
        timeZone: row.timeZone,
        locale: row.locale,
      }
      return profile
    },
    async updateProfile(id, patch) {
      if (Object.keys(patch).length === 0) return
      await db.updateTable('users').set(patch).where('id', '=', id).execute()
    },
  }
}
