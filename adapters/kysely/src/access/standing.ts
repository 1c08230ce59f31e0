import type { LiveCheck, OrgId, UserId } from '@workgraph/core'
import type { IdempotencyLookup, IdempotencyRecord, OrgStanding } from '@workgraph/core/storage'
import { type CompiledQuery, type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { iso, json } from '../normalize.ts'
import type { OAuthTables, RevokedAccessTokensTable } from '../oauth/rows.ts'
import type { Database, Dialect } from '../schema.ts'
import { standingsFromRows } from './standing-records.ts'
import { kind, nulls, type StandingRow, standingRows } from './standing-rows.ts'

/** A row of `standing`'s union: the standing's own, or the replay's and the token check's. */
type Row = Omit<StandingRow, 'kind' | 'key'> & {
  kind: StandingRow['kind'] | 'replay' | 'revoked' | 'consent'
  key: string | null
}

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
  dialect: Dialect,
  orgId: OrgId,
  userId: UserId,
  replay?: IdempotencyLookup,
  token?: LiveCheck,
): Promise<OrgStanding> {
  const locked = dialect === 'postgres' && replay?.lock !== undefined
  const replayArgs = replay
    ? [replay.principalKey, replay.key, replay.notBefore, ...(locked ? [replay.lock] : [])]
    : []
  const tokenArgs = token ? [token.jti, ...(token.grantId === null ? [] : [token.grantId])] : []
  const args = [orgId, userId, ...replayArgs, ...tokenArgs]
  const shape = `access.standing:${replay ? (locked ? 'locked' : 'replay') : ''}:${token ? (token.grantId === null ? 'token' : 'consent') : ''}`
  const query = compiledOnce(db, shape, args, ([org, user, ...rest]) => {
    const [principalKey, key, notBefore, lock] = replay ? rest.slice(0, replayArgs.length) : []
    const [jti, grantId] = rest.slice(replayArgs.length)
    const rows = standingRows(db, {
      key: 'orgId',
      members: (q) => q.where('members.orgId', '=', org!).where('members.userId', '=', user!),
      orgs: (q) => q.where('orgs.id', '=', org!),
    })
    // With the key's lock (Postgres), `idempotency_answer` takes it and then reads the answer with a
    // snapshot taken after it (migration 0074); SQLite takes no locks.
    const answers =
      lock !== undefined
        ? db.selectFrom(
            sql<
              Database['idempotencyKeys']
            >`idempotency_answer(${lock}, ${principalKey}, ${key}, ${notBefore})`.as('ik'),
          )
        : db.selectFrom('idempotencyKeys as ik')
    const withReplay = principalKey
      ? rows.unionAll(
          (answers as ReturnType<typeof db.selectFrom<'idempotencyKeys as ik'>>)
            .select([
              kind('replay'),
              ...nulls('key'),
              'ik.key as id',
              'ik.operationId as a',
              'ik.requestHash as b',
              sql<string | null>`cast(${sql.ref('ik.status')} as text)`.as('c'),
              sql<string | null>`cast(${sql.ref('ik.body')} as text)`.as('d'),
              'ik.etag as e',
              'ik.createdAt',
              ...nulls('updatedAt', 'archivedAt'),
            ])
            .where('ik.principalKey', '=', principalKey)
            .where('ik.key', '=', key!)
            .where('ik.createdAt', '>=', notBefore!) as never,
        )
      : rows
    // The token's check: a row when its `jti` is revoked, a row when its consent still exists.
    const marker = (k: 'revoked' | 'consent', id: string) => [
      kind(k),
      ...nulls('key'),
      sql<string>`${sql.ref(id)}`.as('id'),
      ...nulls('a', 'b', 'c', 'd', 'e', 'createdAt', 'updatedAt', 'archivedAt'),
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
    return all as never as { compile(): CompiledQuery<Row> }
  })
  const own: StandingRow[] = []
  let replayed: Row | undefined
  let revoked = false
  let consent = false
  for (const r of await runCompiled(db, query)) {
    if (r.kind === 'revoked') revoked = true
    else if (r.kind === 'consent') consent = true
    else if (r.kind === 'replay') replayed = r
    else own.push(r as StandingRow)
  }
  const result = standingsFromRows(own, () => orgId).get(orgId) ?? {
    org: null,
    member: null,
    teamIds: [],
    grants: [],
  }
  if (replay) result.replay = replayed ? toReplay(replayed, replay) : null
  if (token) result.tokenLive = !revoked && (token.grantId === null || consent)
  return result
}

function toReplay(r: Row, replay: IdempotencyLookup): IdempotencyRecord {
  return {
    principalKey: replay.principalKey,
    key: r.id,
    operationId: r.a!,
    requestHash: r.b!,
    status: Number(r.c),
    body: json(r.d),
    etag: r.e,
    createdAt: iso(r.createdAt!),
  }
}
