import { type Kysely, type QueryCreator, type SelectQueryBuilder, sql } from 'kysely'
import type { Database } from '../schema.ts'

/**
 * One row of a standing read's `union all`: what `kind` says, for whom (`key`: the user or the org
 * the reader groups by), in shared columns (`a` to `e` hold text whose meaning depends on the kind;
 * a team row has only its id).
 */
export interface StandingRow {
  kind: 'org' | 'member' | 'team' | 'grant'
  key: string
  id: string
  a: string | null
  b: string | null
  c: string | null
  d: string | null
  e: string | null
  createdAt: Date | string | null
  updatedAt: Date | string | null
  archivedAt: Date | string | null
}

/** What the rows are grouped by: each user of one org, or each org of one user. */
type StandingKey = 'userId' | 'orgId'

/** The members a read stands for (the `m` its member, team and grant rows read), with their user. */
interface MemberInScope {
  id: string
  orgId: string
  userId: string
  name: string
  email: string
  role: string
  status: string
  createdAt: Date | string
  updatedAt: Date | string
}
type StandingDatabase = Database & { m: MemberInScope }
type Rows = QueryCreator<StandingDatabase>
type Branch = SelectQueryBuilder<StandingDatabase, never, StandingRow>

const none = () => sql<string | null>`null`
/** Columns a kind of row leaves empty. */
export const nulls = (...columns: (keyof StandingRow)[]) => columns.map((c) => none().as(c))
export const kind = <K extends string>(k: K) => sql<K>`${sql.lit(k)}`.as('kind')
const text = (ref: string) => sql<string | null>`${sql.ref(ref)}`
const time = (ref: string) => sql<Date | string | null>`${sql.ref(ref)}`
const keyOf = (key: StandingKey) => text(`m.${key}`).as('key')

function orgRows(q: Rows, where: OrgFilter): Branch {
  return where(q.selectFrom('orgs'))
    .select([
      kind('org'),
      text('orgs.id').as('key'),
      'orgs.id',
      text('orgs.name').as('a'),
      text('orgs.slug').as('b'),
      ...nulls('c', 'd', 'e'),
      time('orgs.createdAt').as('createdAt'),
      time('orgs.updatedAt').as('updatedAt'),
      time('orgs.archivedAt').as('archivedAt'),
    ])
    .$castTo<StandingRow>() as never
}

function memberRows(q: Rows, key: StandingKey): Branch {
  return q
    .selectFrom('m')
    .select([
      kind('member'),
      keyOf(key),
      'm.id',
      text('m.name').as('a'),
      text('m.email').as('b'),
      text('m.role').as('c'),
      text('m.status').as('d'),
      text('m.userId').as('e'),
      time('m.createdAt').as('createdAt'),
      time('m.updatedAt').as('updatedAt'),
      ...nulls('archivedAt'),
    ])
    .$castTo<StandingRow>() as never
}

function teamRows(q: Rows, key: StandingKey): Branch {
  return q
    .selectFrom('teamMemberships as tm')
    .innerJoin('m', (j) => j.onRef('m.orgId', '=', 'tm.orgId').onRef('m.id', '=', 'tm.actorId'))
    .select([
      kind('team'),
      keyOf(key),
      'tm.teamId as id',
      ...nulls('a', 'b', 'c', 'd', 'e', 'createdAt', 'updatedAt', 'archivedAt'),
    ])
    .$castTo<StandingRow>() as never
}

/** Grants held by the member itself (`holder` 'member') or by one of its teams ('team'). */
function grantRows(q: Rows, key: StandingKey, holder: 'member' | 'team'): Branch {
  const grants =
    holder === 'member'
      ? q
          .selectFrom('grants')
          .innerJoin('m', (j) =>
            j.onRef('m.orgId', '=', 'grants.orgId').onRef('m.id', '=', 'grants.subjectId'),
          )
      : // A cross join keeps SQLite (which has no statistics to go by) on this order: the members'
        // teams, then each team's grants by subject, not every grant of the org probed against the
        // teams. Postgres orders the joins itself.
        q
          .selectFrom('m')
          .crossJoin('teamMemberships as tm')
          .crossJoin('grants')
          .whereRef('tm.orgId', '=', 'm.orgId')
          .whereRef('tm.actorId', '=', 'm.id')
          .whereRef('grants.orgId', '=', 'tm.orgId')
          .whereRef('grants.subjectId', '=', 'tm.teamId')
  return grants
    .select([
      kind('grant'),
      keyOf(key),
      'grants.id',
      'grants.subjectType as a',
      'grants.subjectId as b',
      'grants.containerType as c',
      'grants.containerId as d',
      'grants.capability as e',
      time('grants.createdAt').as('createdAt'),
      time('grants.updatedAt').as('updatedAt'),
      ...nulls('archivedAt'),
    ])
    .$castTo<StandingRow>() as never
}

// biome-ignore lint/complexity/noBannedTypes: Kysely's selection before any column is chosen.
type MembersQuery = SelectQueryBuilder<Database, 'members' | 'users', {}>
type OrgFilter = (orgs: SelectQueryBuilder<StandingDatabase, 'orgs', object>) => typeof orgs

interface StandingRowsOptions {
  /** Narrows `members` (joined to `users`) to the members the read stands for. */
  members: (members: MembersQuery) => MembersQuery
  key: StandingKey
  /** The orgs whose row comes too, if any (`m` names the members in scope). */
  orgs?: OrgFilter
}

/**
 * The org, member, team and grant rows of a standing read, one `union all` over the members in
 * scope (`m`, read once). `standing`, `standings` and `standingsOf` differ only in the options; a
 * reader adds branches of its own with `unionAll`. Pass `compiledOnce`'s stand-ins straight into
 * the filters.
 */
export function standingRows(db: Kysely<Database>, options: StandingRowsOptions): Branch {
  const { key, orgs } = options
  const withMembers = db.with('m', (q) =>
    options
      .members(q.selectFrom('members').innerJoin('users', 'users.id', 'members.userId'))
      .select([
        'members.id',
        'members.orgId',
        'members.userId',
        'users.name',
        'users.email',
        'members.role',
        'members.status',
        'members.createdAt',
        'members.updatedAt',
      ]),
  ) as unknown as Rows
  const branches = [
    ...(orgs ? [(q: Rows) => orgRows(q, orgs)] : []),
    (q: Rows) => memberRows(q, key),
    (q: Rows) => teamRows(q, key),
    (q: Rows) => grantRows(q, key, 'member'),
    (q: Rows) => grantRows(q, key, 'team'),
  ]
  // Only the first branch carries the `with`; the others are built without it.
  const rows = db as unknown as Rows
  let all = branches[0]!(withMembers)
  for (const branch of branches.slice(1)) all = all.unionAll(branch(rows)) as never
  return all
}
