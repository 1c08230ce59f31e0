import type { Member, MemberId, Org, OrgId, UserId } from '@workgraph/core'
import type { MemberRepo, OrgRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'

function toOrg(r: {
  id: string
  name: string
  slug: string
  createdAt: Date | string
  updatedAt: Date | string
  archivedAt: Date | string | null
}): Org {
  return {
    id: r.id as OrgId,
    name: r.name,
    slug: r.slug,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    archivedAt: isoOrNull(r.archivedAt),
  }
}

export function orgRepo(db: Kysely<Database>): OrgRepo {
  return {
    async insert(org) {
      await db.insertInto('orgs').values(org).execute()
      await db.insertInto('orgEventCounters').values({ orgId: org.id, lastSeq: 0 }).execute()
    },
    async get(id) {
      const query = compiledOnce(db, 'orgs.get', [id], ([idArg]) =>
        db.selectFrom('orgs').selectAll().where('id', '=', idArg!),
      )
      const [row] = await runCompiled(db, query)
      return row ? toOrg(row) : null
    },
    async slugTaken(slug) {
      return Boolean(await db.selectFrom('orgs').select('id').where('slug', '=', slug).executeTakeFirst())
    },
    async update(id, patch) {
      await db.updateTable('orgs').set(patch).where('id', '=', id).execute()
    },
    async listForUser(userId, page) {
      const q = db
        .selectFrom('orgs')
        .innerJoin('members', 'members.orgId', 'orgs.id')
        .selectAll('orgs')
        .where('members.userId', '=', userId)
        .where('members.status', '=', 'active')
      const rows = await keysetPage(q, page, { sort: 'orgs.id', id: 'orgs.id' }).execute()
      return rows.map(toOrg)
    },
  }
}

export const memberColumns = [
  'members.id',
  'members.orgId',
  'members.userId',
  'members.kind',
  'members.role',
  'members.status',
  'members.createdAt',
  'members.updatedAt',
  'users.name',
  'users.email',
] as const

export function toMember(
  r: Record<(typeof memberColumns)[number] extends `${string}.${infer C}` ? C : never, unknown>,
): Member {
  return {
    id: r.id as MemberId,
    orgId: r.orgId as OrgId,
    userId: r.userId as UserId,
    kind: 'person',
    name: r.name as string,
    email: r.email as string,
    role: r.role as Member['role'],
    status: r.status as Member['status'],
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

export function memberRepo(db: Kysely<Database>): MemberRepo {
  const base = () =>
    db.selectFrom('members').innerJoin('users', 'users.id', 'members.userId').select(memberColumns)
  return {
    async insert(member) {
      await db.insertInto('members').values(member).execute()
    },
    async get(orgId, id) {
      const row = await base()
        .where('members.orgId', '=', orgId)
        .where('members.id', '=', id)
        .executeTakeFirst()
      return row ? toMember(row) : null
    },
    async findByUser(orgId, userId) {
      // Every request in an org resolves its actor with this.
      const query = compiledOnce(db, 'members.findByUser', [orgId, userId], ([org, user]) =>
        base().where('members.orgId', '=', org!).where('members.userId', '=', user!),
      )
      const [row] = await runCompiled(db, query)
      return row ? toMember(row) : null
    },
    async list(orgId, filter, page) {
      let q = base().where('members.orgId', '=', orgId)
      q = filter.status
        ? q.where('members.status', '=', filter.status)
        : q.where('members.status', '!=', 'removed')
      const rows = await keysetPage(q, page, { sort: 'members.id', id: 'members.id' }).execute()
      return rows.map(toMember)
    },
    async update(orgId, id, patch) {
      await db.updateTable('members').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async countOwners(orgId) {
      const row = await db
        .selectFrom('members')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('orgId', '=', orgId)
        .where('role', '=', 'owner')
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}
