import type { Grant, GrantId, LiveCheck, Member, MemberId, OrgId, UserId } from '@workgraph/core'
import type { IdempotencyLookup, OrgStanding } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { OAuthTables, RevokedAccessTokensTable } from '../oauth/rows.ts'
import type { Database } from '../schema.ts'

/**
 * One row of `standing`'s union: what `kind` says, in shared columns (`a` to `e` hold text whose
 * meaning depends on the kind; a team row has only its id).
 */
export interface StandingRow {
  kind: 'org' | 'member' | 'team' | 'grant' | 'replay' | 'revoked' | 'consent'
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

export const none = () => sql<string | null>`null`
export const kind = (k: StandingRow['kind']) => sql<StandingRow['kind']>`${sql.lit(k)}`.as('kind')

/**
 * The org, the user's membership, its teams and its grants in one statement (a `union all` of typed
 * rows), where the request used to run four, one after the other: every request in an org runs it.
 * The teams and grants are those `teamsOf` and `grantsFor` return for the member. With `replay`, an
 * Idempotency-Key's stored answer comes as one more row, as `idempotency.get` reads it; with
 * `token`, the access token's check rides along too (`oauth.accessTokenIsLive`'s read), where it was
 * a statement of its own before every request.
 */
export async function standing(
  db: Kysely<Database>,
  orgId: OrgId,
  userId: UserId,
  replay?: IdempotencyLookup,
  token?: LiveCheck,
): Promise<OrgStanding> {
  const replayArgs = replay ? [replay.principalKey, replay.key, replay.notBefore] : []
  const tokenArgs = token ? [token.jti, ...(token.grantId === null ? [] : [token.grantId])] : []
  const args = [orgId, userId, ...replayArgs, ...tokenArgs]
  const shape = `access.standing:${replay ? 'replay' : ''}:${token ? (token.grantId === null ? 'token' : 'consent') : ''}`
  const query = compiledOnce(db, shape, args, ([org, user, ...rest]) => {
    const [principalKey, key, notBefore] = replay ? rest : []
    const [jti, grantId] = rest.slice(replayArgs.length)
    const memberId = () =>
      db
        .selectFrom('members')
        .select('members.id')
        .where('members.orgId', '=', org!)
        .where('members.userId', '=', user!)
    const teamIds = () =>
      db
        .selectFrom('teamMemberships')
        .select('teamMemberships.teamId as id')
        .where('teamMemberships.orgId', '=', org!)
        .where('teamMemberships.actorId', '=', memberId())
    const rows = db
      .selectFrom('orgs')
      .select([
        kind('org'),
        'orgs.id',
        sql<string | null>`${sql.ref('orgs.name')}`.as('a'),
        sql<string | null>`${sql.ref('orgs.slug')}`.as('b'),
        none().as('c'),
        none().as('d'),
        none().as('e'),
        sql<Date | string | null>`${sql.ref('orgs.createdAt')}`.as('createdAt'),
        sql<Date | string | null>`${sql.ref('orgs.updatedAt')}`.as('updatedAt'),
        sql<Date | string | null>`${sql.ref('orgs.archivedAt')}`.as('archivedAt'),
      ])
      .where('orgs.id', '=', org!)
      .unionAll(
        db
          .selectFrom('members')
          .innerJoin('users', 'users.id', 'members.userId')
          .select([
            kind('member'),
            'members.id',
            'users.name as a',
            'users.email as b',
            'members.role as c',
            'members.status as d',
            'members.userId as e',
            'members.createdAt',
            'members.updatedAt',
            none().as('archivedAt'),
          ])
          .where('members.orgId', '=', org!)
          .where('members.userId', '=', user!),
      )
      .unionAll(
        db
          .selectFrom('teamMemberships')
          .select([
            kind('team'),
            'teamMemberships.teamId as id',
            none().as('a'),
            none().as('b'),
            none().as('c'),
            none().as('d'),
            none().as('e'),
            none().as('createdAt'),
            none().as('updatedAt'),
            none().as('archivedAt'),
          ])
          .where('teamMemberships.orgId', '=', org!)
          .where('teamMemberships.actorId', '=', memberId()),
      )
      .unionAll(
        db
          .selectFrom('grants')
          .select([
            kind('grant'),
            'grants.id',
            'grants.subjectType as a',
            'grants.subjectId as b',
            'grants.containerType as c',
            'grants.containerId as d',
            'grants.capability as e',
            'grants.createdAt',
            'grants.updatedAt',
            none().as('archivedAt'),
          ])
          .where('grants.orgId', '=', org!)
          // Held by the member or by one of its teams (ids carry their type's prefix, as in `grantsFor`).
          .where('grants.subjectId', 'in', memberId().unionAll(teamIds())),
      )
    const withReplay = principalKey
      ? rows.unionAll(
          db
            .selectFrom('idempotencyKeys as ik')
            .select([
              kind('replay'),
              'ik.key as id',
              'ik.operationId as a',
              'ik.requestHash as b',
              sql<string | null>`cast(${sql.ref('ik.status')} as text)`.as('c'),
              sql<string | null>`cast(${sql.ref('ik.body')} as text)`.as('d'),
              'ik.etag as e',
              'ik.createdAt',
              none().as('updatedAt'),
              none().as('archivedAt'),
            ])
            .where('ik.principalKey', '=', principalKey)
            .where('ik.key', '=', key!)
            .where('ik.createdAt', '>=', notBefore!),
        )
      : rows
    // The token's check: a row when its `jti` is revoked, a row when its consent still exists.
    const marker = (k: 'revoked' | 'consent', id: string) => [
      kind(k),
      sql<string>`${sql.ref(id)}`.as('id'),
      none().as('a'),
      none().as('b'),
      none().as('c'),
      none().as('d'),
      none().as('e'),
      none().as('createdAt'),
      none().as('updatedAt'),
      none().as('archivedAt'),
    ]
    // The oauth group's tables, read here as its `accessTokenIsLive` reads them.
    const oauth = db as unknown as Kysely<OAuthTables & RevokedAccessTokensTable>
    const revoked = oauth
      .selectFrom('revokedAccessTokens')
      .select(marker('revoked', 'revokedAccessTokens.jti') as never)
      .where('revokedAccessTokens.jti', '=', jti!)
    const consent = oauth
      .selectFrom('oauthConsents')
      .select(marker('consent', 'oauthConsents.id') as never)
      .where('oauthConsents.id', '=', grantId!)
    let all = withReplay
    if (jti !== undefined) all = all.unionAll(revoked as never)
    if (grantId !== undefined) all = all.unionAll(consent as never)
    return all as never as { compile(): import('kysely').CompiledQuery<StandingRow> }
  })
  return standingFromRows(await runCompiled(db, query), orgId, replay, token)
}

/** `standing`'s rows of one org as the record they stand for. */
export function standingFromRows(
  rows: readonly StandingRow[],
  orgId: OrgId,
  replay?: IdempotencyLookup,
  token?: LiveCheck,
): OrgStanding {
  const result: OrgStanding = { org: null, member: null, teamIds: [], grants: [] }
  if (replay) result.replay = null
  let revoked = false
  let consent = false
  for (const r of rows) {
    if (r.kind === 'revoked') revoked = true
    else if (r.kind === 'consent') consent = true
    else if (r.kind === 'org') {
      result.org = {
        id: r.id as OrgId,
        name: r.a!,
        slug: r.b!,
        createdAt: iso(r.createdAt!),
        updatedAt: iso(r.updatedAt!),
        archivedAt: isoOrNull(r.archivedAt),
      }
    } else if (r.kind === 'member') {
      result.member = {
        id: r.id as MemberId,
        orgId,
        userId: r.e as UserId,
        kind: 'person',
        name: r.a!,
        email: r.b!,
        role: r.c as Member['role'],
        status: r.d as Member['status'],
        createdAt: iso(r.createdAt!),
        updatedAt: iso(r.updatedAt!),
      }
    } else if (r.kind === 'team') {
      result.teamIds.push(r.id)
    } else if (r.kind === 'replay') {
      result.replay = {
        principalKey: replay!.principalKey,
        key: r.id,
        operationId: r.a!,
        requestHash: r.b!,
        status: Number(r.c),
        body: json(r.d),
        etag: r.e,
        createdAt: iso(r.createdAt!),
      }
    } else {
      result.grants.push({
        id: r.id as GrantId,
        orgId,
        subjectType: r.a as Grant['subjectType'],
        subjectId: r.b!,
        containerType: r.c as Grant['containerType'],
        containerId: r.d!,
        capability: r.e as Grant['capability'],
        createdAt: iso(r.createdAt!),
        updatedAt: iso(r.updatedAt!),
      })
    }
  }
  if (token) result.tokenLive = !revoked && (token.grantId === null || consent)
  return result
}
