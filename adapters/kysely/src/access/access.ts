import {
  type ActorId,
  CAPABILITIES,
  type Grant,
  type GrantId,
  type MemberId,
  type OrgId,
  type TeamId,
} from '@workgraph/core'
import type { AccessRepo, InvitationRecord, InvitationRepo } from '@workgraph/core/storage'
import type { Kysely, SelectQueryBuilder } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { containersAbove, reachByRecursion } from './container-reach.ts'
import { standing } from './standing.ts'
import { standings } from './standings.ts'
import { standingsOf } from './standings-of.ts'

type GrantRow = Omit<Database['grants'], 'createdAt' | 'updatedAt'> & {
  createdAt: Date | string
  updatedAt: Date | string
}

function toGrant({ rank: _rank, createdBy: _by, ...r }: GrantRow): Grant {
  return {
    ...r,
    id: r.id as GrantId,
    orgId: r.orgId as OrgId,
    subjectType: r.subjectType as Grant['subjectType'],
    containerType: r.containerType as Grant['containerType'],
    capability: r.capability as Grant['capability'],
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }
}

export function accessRepo(db: Kysely<Database>, dialect: Dialect): AccessRepo {
  return {
    standing: (orgId, userId, replay, token) => standing(db, dialect, orgId, userId, replay, token),
    standingsOf: (userId) => standingsOf(db, userId),
    standings: (orgId, userIds) => standings(db, orgId, userIds),
    async teamsOf(orgId, actorId) {
      const query = compiledOnce(db, 'access.teamsOf', [orgId, actorId], ([org, actor]) =>
        db
          .selectFrom('teamMemberships')
          .select('teamId')
          .where('orgId', '=', org!)
          .where('actorId', '=', actor!),
      )
      return (await runCompiled(db, query)).map((r) => r.teamId)
    },
    async grantsFor(orgId, actorId, teamIds) {
      const subjects = [actorId, ...teamIds]
      const query = compiledOnce(
        db,
        `access.grantsFor:${subjects.length}`,
        [orgId, ...subjects],
        ([org, ...ids]) =>
          db
            .selectFrom('grants')
            .selectAll()
            .where('orgId', '=', org!)
            // Ids carry their type's prefix, so one lookup by subject id serves people, agents and teams.
            .where('subjectId', 'in', ids),
      )
      return (await runCompiled(db, query)).map(toGrant)
    },
    reach: (orgId, from) => reachByRecursion(db, orgId, from),
    containersAbove: (orgId, holder) => containersAbove(db, orgId, holder),
    async holderIds(orgId, query, page) {
      const { roles, containers, minRank } = query
      const onContainers = (eb: any) =>
        eb.or(containers.map((c) => eb.and([eb('containerType', '=', c.type), eb('containerId', '=', c.id)])))
      const granted = db
        .selectFrom('grants')
        .where('orgId', '=', orgId)
        .where('rank', '>=', minRank)
        .where(onContainers)
      let ids = granted
        .select('subjectId as actorId')
        .where('subjectType', 'in', ['member', 'agent'])
        .union(
          db
            .selectFrom('teamMemberships')
            .select('actorId')
            .where('orgId', '=', orgId)
            .where('teamId', 'in', granted.select('subjectId').where('subjectType', '=', 'team')),
        )
      if (roles.length > 0) {
        ids = ids.union(
          db
            .selectFrom('members')
            .select('id as actorId')
            .where('orgId', '=', orgId)
            .where('status', '=', 'active')
            .where('role', 'in', roles),
        )
      }
      const removed = db
        .selectFrom('members')
        .select('id')
        .where('orgId', '=', orgId)
        .where('status', '=', 'removed')
      let q = db
        .selectFrom(ids.as('holders'))
        .select('holders.actorId')
        .where('holders.actorId', 'not in', removed)
      if (page.after) q = q.where('holders.actorId', '>', page.after.id)
      const rows = await q
        .orderBy('holders.actorId')
        .limit(page.limit + 1)
        .execute()
      return rows.map((r) => r.actorId as ActorId)
    },
    async listTeamMembers(orgId, teamId, page) {
      const q = db
        .selectFrom('teamMemberships')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
      const rows = await keysetPage(q, page, { sort: 'actorId', id: 'actorId' }).execute()
      return rows.map((r) => ({
        orgId: r.orgId as OrgId,
        teamId: r.teamId as TeamId,
        actorId: r.actorId,
        createdAt: iso(r.createdAt),
      }))
    },
    async addTeamMember(m) {
      const result = await db
        .insertInto('teamMemberships')
        .values(m)
        .onConflict((oc) => oc.columns(['orgId', 'teamId', 'actorId']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0
    },
    async getTeamMember(orgId, teamId, actorId) {
      const r = await db
        .selectFrom('teamMemberships')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
        .where('actorId', '=', actorId)
        .executeTakeFirst()
      return r
        ? {
            orgId: r.orgId as OrgId,
            teamId: r.teamId as TeamId,
            actorId: r.actorId,
            createdAt: iso(r.createdAt),
          }
        : null
    },
    async removeTeamMember(orgId, teamId, actorId) {
      const result = await db
        .deleteFrom('teamMemberships')
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
        .where('actorId', '=', actorId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async getGrant(orgId, id) {
      const row = await db
        .selectFrom('grants')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toGrant(row) : null
    },
    async findGrant(orgId, key) {
      const row = await db
        .selectFrom('grants')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('subjectType', '=', key.subjectType)
        .where('subjectId', '=', key.subjectId)
        .where('containerType', '=', key.containerType)
        .where('containerId', '=', key.containerId)
        .executeTakeFirst()
      return row ? toGrant(row) : null
    },
    async listGrants(orgId, filter, page) {
      let q = db.selectFrom('grants').selectAll().where('orgId', '=', orgId)
      if (filter.subjectType) q = q.where('subjectType', '=', filter.subjectType)
      if (filter.subjectId) q = q.where('subjectId', '=', filter.subjectId)
      if (filter.containerType) q = q.where('containerType', '=', filter.containerType)
      if (filter.containerId) q = q.where('containerId', '=', filter.containerId)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toGrant)
    },
    async insertGrant(grant) {
      await db
        .insertInto('grants')
        .values({ ...grant, rank: CAPABILITIES.indexOf(grant.capability) })
        .execute()
    },
    async updateGrant(orgId, id, patch) {
      await db
        .updateTable('grants')
        .set({ ...patch, rank: CAPABILITIES.indexOf(patch.capability) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async deleteGrant(orgId, id) {
      await db.deleteFrom('grants').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async deleteGrantsOf(orgId, id) {
      const result = await db
        .deleteFrom('grants')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('subjectId', '=', id), eb('containerId', '=', id)]))
        .executeTakeFirst()
      await db.deleteFrom('teamMemberships').where('orgId', '=', orgId).where('actorId', '=', id).execute()
      return Number(result.numDeletedRows)
    },
  }
}

type InvitationRow = Database['invitations'] extends infer R ? { [K in keyof R]: unknown } : never

function toInvitation(r: InvitationRow): InvitationRecord {
  return {
    id: r.id as InvitationRecord['id'],
    orgId: r.orgId as OrgId,
    email: r.email as string,
    role: r.role as InvitationRecord['role'],
    tokenHash: r.tokenHash as string,
    invitedBy: r.invitedBy as MemberId,
    createdAt: iso(r.createdAt as string),
    expiresAt: iso(r.expiresAt as string),
    acceptedAt: isoOrNull(r.acceptedAt as string | null),
    acceptedBy: r.acceptedBy as MemberId | null,
    revokedAt: isoOrNull(r.revokedAt as string | null),
    declinedAt: isoOrNull(r.declinedAt as string | null),
  }
}

export function invitationRepo(db: Kysely<Database>): InvitationRepo {
  return {
    async insert(invitation) {
      await db.insertInto('invitations').values(invitation).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async list(orgId, filter, page) {
      let q = db.selectFrom('invitations').selectAll().where('orgId', '=', orgId)
      if (filter.pendingAt) {
        q = pending(q, filter.pendingAt)
      }
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toInvitation)
    },
    async consume(tokenHash, at, memberId) {
      const row = await db
        .updateTable('invitations')
        .set({ acceptedAt: at, acceptedBy: memberId })
        .where('tokenHash', '=', tokenHash)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('declinedAt', 'is', null)
        .where('expiresAt', '>', at)
        .returningAll()
        .executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async reissue(orgId, id, tokenHash, expiresAt) {
      const result = await db
        .updateTable('invitations')
        .set({ tokenHash, expiresAt })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('declinedAt', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async findByToken(tokenHash) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async revoke(orgId, id, at) {
      await db
        .updateTable('invitations')
        .set({ revokedAt: at })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async listForEmail(email, now, page) {
      const q = pending(db.selectFrom('invitations').selectAll().where('email', '=', email), now)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toInvitation)
    },
    async findForEmail(email, id) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('email', '=', email)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toInvitation(row) : null
    },
    async decline(orgId, id, at) {
      const result = await db
        .updateTable('invitations')
        .set({ declinedAt: at })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('declinedAt', 'is', null)
        .where('expiresAt', '>', at)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
  }
}

/** Neither accepted, revoked nor declined, and unexpired at `now`. */
function pending<Q extends SelectQueryBuilder<Database, 'invitations', any>>(q: Q, now: string): Q {
  return q
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('declinedAt', 'is', null)
    .where('expiresAt', '>', now) as Q
}

export type { ActorId }
