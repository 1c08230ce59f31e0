import type { Grant, GrantId, Member, MemberId, OrgId, UserId } from '@workgraph/core'
import type { MemberStanding } from '@workgraph/core/storage'
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import { inLists } from '../in-list.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

/** One row of the union: whose (`u`, a user id) and what (`kind`), in shared columns as in `standing`. */
interface StandingsRow {
  kind: 'member' | 'team' | 'grant'
  u: string
  id: string
  a: string | null
  b: string | null
  c: string | null
  d: string | null
  e: string | null
  createdAt: Date | string | null
  updatedAt: Date | string | null
}

const none = () => sql<string | null>`null`
const kind = (k: StandingsRow['kind']) => sql<StandingsRow['kind']>`${sql.lit(k)}`.as('kind')
const text = (ref: string) => sql<string | null>`${sql.ref(ref)}`

/**
 * `standing` for many users of one org, without the org row: the members (`m`, read once), their
 * teams, and the grants held by each member or one of its teams, every row tagged with its user.
 * A stream round used to run `standing` once per reader; this is one statement per 256 readers.
 */
export async function standings(
  db: Kysely<Database>,
  orgId: OrgId,
  userIds: readonly UserId[],
): Promise<Map<UserId, MemberStanding>> {
  const result = new Map<UserId, MemberStanding>()
  const grants: StandingsRow[] = []
  for (const users of inLists([...new Set(userIds)])) {
    const query = compiledOnce(db, `access.standings:${users.length}`, [orgId, ...users], ([org, ...ids]) =>
      build(db, org!, ids),
    )
    for (const r of await runCompiled(db, query)) {
      if (r.kind === 'grant') grants.push(r)
      else if (r.kind === 'team') result.get(r.u as UserId)?.teamIds.push(r.id)
      else result.set(r.u as UserId, { member: toMember(orgId, r), teamIds: [], grants: [] })
    }
  }
  for (const r of grants) result.get(r.u as UserId)?.grants.push(toGrant(orgId, r))
  return result
}

function build(
  db: Kysely<Database>,
  org: string,
  ids: readonly string[],
): { compile(): CompiledQuery<StandingsRow> } {
  const grantColumns = [
    'grants.id',
    'grants.subjectType as a',
    'grants.subjectId as b',
    'grants.containerType as c',
    'grants.containerId as d',
    'grants.capability as e',
    'grants.createdAt',
    'grants.updatedAt',
  ] as const
  const query = db
    .with('m', (q) =>
      q
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.userId')
        .select([
          'members.id',
          'members.userId',
          'users.name',
          'users.email',
          'members.role',
          'members.status',
          'members.createdAt',
          'members.updatedAt',
        ])
        .where('members.orgId', '=', org)
        .where('members.userId', 'in', ids),
    )
    .selectFrom('m')
    .select([
      kind('member'),
      'm.userId as u',
      'm.id',
      text('m.name').as('a'),
      text('m.email').as('b'),
      text('m.role').as('c'),
      text('m.status').as('d'),
      none().as('e'),
      sql<Date | string | null>`${sql.ref('m.createdAt')}`.as('createdAt'),
      sql<Date | string | null>`${sql.ref('m.updatedAt')}`.as('updatedAt'),
    ])
    .unionAll((eb) =>
      eb
        .selectFrom('teamMemberships')
        .innerJoin('m', 'm.id', 'teamMemberships.actorId')
        .select([
          kind('team'),
          'm.userId as u',
          'teamMemberships.teamId as id',
          none().as('a'),
          none().as('b'),
          none().as('c'),
          none().as('d'),
          none().as('e'),
          none().as('createdAt'),
          none().as('updatedAt'),
        ])
        .where('teamMemberships.orgId', '=', org),
    )
    // Grants held by the member itself, then those held by one of its teams.
    .unionAll((eb) =>
      eb
        .selectFrom('grants')
        .innerJoin('m', 'm.id', 'grants.subjectId')
        .select([kind('grant'), 'm.userId as u', ...grantColumns])
        .where('grants.orgId', '=', org),
    )
    .unionAll((eb) =>
      eb
        .selectFrom('grants')
        .innerJoin('teamMemberships as tm', (join) =>
          join.onRef('tm.orgId', '=', 'grants.orgId').onRef('tm.teamId', '=', 'grants.subjectId'),
        )
        .innerJoin('m', 'm.id', 'tm.actorId')
        .select([kind('grant'), 'm.userId as u', ...grantColumns])
        .where('grants.orgId', '=', org),
    )
  return query as never
}

function toMember(orgId: OrgId, r: StandingsRow): Member {
  return {
    id: r.id as MemberId,
    orgId,
    userId: r.u as UserId,
    kind: 'person',
    name: r.a!,
    email: r.b!,
    role: r.c as Member['role'],
    status: r.d as Member['status'],
    createdAt: iso(r.createdAt!),
    updatedAt: iso(r.updatedAt!),
  }
}

function toGrant(orgId: OrgId, r: StandingsRow): Grant {
  return {
    id: r.id as GrantId,
    orgId,
    subjectType: r.a as Grant['subjectType'],
    subjectId: r.b!,
    containerType: r.c as Grant['containerType'],
    containerId: r.d!,
    capability: r.e as Grant['capability'],
    createdAt: iso(r.createdAt!),
    updatedAt: iso(r.updatedAt!),
  }
}
