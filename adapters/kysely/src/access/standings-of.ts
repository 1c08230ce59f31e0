import type { OrgId, UserId } from '@workgraph/core'
import type { ActiveStanding } from '@workgraph/core/storage'
import type { CompiledQuery, Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import type { Database } from '../schema.ts'
import { standingsFromRows } from './standing-records.ts'
import { type StandingRow, standingRows } from './standing-rows.ts'

/**
 * `standing` in every workspace where the user is an active member, in one statement: a hub read
 * (20 workspaces) ran the memberships and then one `standing` per workspace. The same union of typed
 * rows, keyed by their org; by org id, as `orgs.listForUser` orders them.
 */
export async function standingsOf(db: Kysely<Database>, userId: UserId): Promise<ActiveStanding[]> {
  const query = compiledOnce(
    db,
    'access.standingsOf',
    [userId],
    ([user]) =>
      standingRows(db, {
        key: 'orgId',
        members: (q) => q.where('members.userId', '=', user!).where('members.status', '=', 'active'),
        orgs: (q) => q.where('orgs.id', 'in', (eb) => eb.selectFrom('m').select('m.orgId')),
      }) as never as { compile(): CompiledQuery<StandingRow> },
  )
  const byOrg = standingsFromRows(await runCompiled(db, query), (orgId) => orgId as OrgId)
  const out: ActiveStanding[] = []
  for (const orgId of [...byOrg.keys()].sort()) {
    const { org, member, ...rest } = byOrg.get(orgId)!
    if (org && member) out.push({ ...rest, org, member })
  }
  return out
}
