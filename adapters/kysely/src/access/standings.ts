import type { OrgId, UserId } from '@workgraph/core'
import type { MemberStanding } from '@workgraph/core/storage'
import type { CompiledQuery, Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { inLists } from '../in-list.ts'
import type { Database } from '../schema.ts'
import { standingsFromRows } from './standing-records.ts'
import { type StandingRow, standingRows } from './standing-rows.ts'

/**
 * `standing` for many users of one org, without the org row: the members (read once), their teams,
 * and the grants held by each member or one of its teams, every row keyed by its user.
 * A stream round used to run `standing` once per reader; this is one statement per 256 readers.
 */
export async function standings(
  db: Kysely<Database>,
  orgId: OrgId,
  userIds: readonly UserId[],
): Promise<Map<UserId, MemberStanding>> {
  const rows: StandingRow[] = []
  for (const users of inLists([...new Set(userIds)])) {
    const query = compiledOnce(
      db,
      `access.standings:${users.length}`,
      [orgId, ...users],
      ([org, ...ids]) =>
        standingRows(db, {
          key: 'userId',
          members: (q) => q.where('members.orgId', '=', org!).where('members.userId', 'in', ids),
        }) as never as { compile(): CompiledQuery<StandingRow> },
    )
    rows.push(...(await runCompiled(db, query)))
  }
  const result = new Map<UserId, MemberStanding>()
  for (const [userId, { member, teamIds, grants }] of standingsFromRows(rows, () => orgId))
    if (member) result.set(userId as UserId, { member, teamIds, grants })
  return result
}
