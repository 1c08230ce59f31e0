import type { HubRecordType, HubRelation, OrgId, ReadScope, RelatedRecord } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { visibleProjectRef } from '../initiatives/initiative-rows.ts'
import type { Database } from '../schema.ts'
import { visibleInitiativeRef } from '../scope.ts'

type Eb = ExpressionBuilder<Database, keyof Database>
// Loosely typed: the same query runs over three tables with different names and columns.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = any

/** Per type: its table, the column naming its lead or owner, its members table, and its visibility. */
const KINDS = {
  project: {
    table: 'projects',
    lead: 'leadId',
    members: { table: 'projectMembers', ref: 'projectId' },
    visible: (eb: Eb, scope: ReadScope) => visibleProjectRef(eb, 'r.id', 'r.orgId', scope),
  },
  program: {
    table: 'programs',
    lead: 'ownerId',
    members: { table: 'programMembers', ref: 'programId' },
    // Every member may view a program (programs/service.ts).
    visible: () => sql<SqlBool>`1 = 1`,
  },
  initiative: {
    table: 'initiatives',
    lead: 'ownerId',
    members: { table: 'initiativeMembers', ref: 'initiativeId' },
    visible: (eb: Eb, scope: ReadScope) => visibleInitiativeRef(eb, 'r.id', 'r.orgId', scope),
  },
} as const

/**
 * The unarchived records of each type the member leads, belongs to or follows, among those the scope
 * can view: one query per type, each with the permission predicate in it.
 */
export async function relatedRecords(
  db: Kysely<Database>,
  orgId: OrgId,
  memberId: string,
  types: readonly HubRecordType[],
  scope: ReadScope,
  limit: number,
): Promise<RelatedRecord[]> {
  const out: RelatedRecord[] = []
  for (const type of types) {
    const kind = KINDS[type]
    const anyDb = db as unknown as Kysely<Loose>
    const member = (eb: ExpressionBuilder<Loose, Loose>) =>
      eb.exists(
        eb
          .selectFrom(`${kind.members.table} as m`)
          .select('m.memberId')
          .whereRef('m.orgId', '=', 'r.orgId')
          .whereRef(`m.${kind.members.ref}`, '=', 'r.id')
          .where('m.memberId', '=', memberId),
      )
    const follower = (eb: ExpressionBuilder<Loose, Loose>) =>
      eb.exists(
        eb
          .selectFrom('recordFollowers as f')
          .select('f.actorId')
          .whereRef('f.orgId', '=', 'r.orgId')
          .whereRef('f.recordId', '=', 'r.id')
          .where('f.recordType', '=', type)
          .where('f.actorId', '=', memberId),
      )
    const rows = await anyDb
      .selectFrom(`${kind.table} as r`)
      .select((eb) => [
        'r.id as id',
        eb(`r.${kind.lead}`, '=', memberId).as('isLead'),
        member(eb).as('isMember'),
        follower(eb).as('isFollower'),
      ])
      .where('r.orgId', '=', orgId)
      .where('r.archivedAt', 'is', null)
      .where((eb) => eb.or([eb(`r.${kind.lead}`, '=', memberId), member(eb), follower(eb)]))
      .where((eb) => kind.visible(eb as unknown as Eb, scope) as Expression<SqlBool>)
      .orderBy('r.id')
      .limit(limit)
      .execute()
    for (const r of rows) {
      const relations: HubRelation[] = []
      if (truthy(r.isLead)) relations.push('lead')
      if (truthy(r.isMember)) relations.push('member')
      if (truthy(r.isFollower)) relations.push('follower')
      out.push({ type, id: r.id as string, relations })
    }
  }
  return out
}

/** SQLite answers 0/1, Postgres booleans. */
const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 't'
