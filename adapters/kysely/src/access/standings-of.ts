import type { OrgId, UserId } from '@workgraph/core'
import type { ActiveStanding } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../fast-path.ts'
import type { Database } from '../schema.ts'
import { kind, none, type StandingRow, standingFromRows } from './standing.ts'

/** A `standing` row with the org it belongs to. */
type OrgStandingRow = StandingRow & { orgOf: string }

/**
 * `standing` in every workspace where the user is an active member, in one statement: a hub read
 * (20 workspaces) ran the memberships and then one `standing` per workspace. The same union of typed
 * rows, each with its org; by org id, as `orgs.listForUser` orders them.
 */
export async function standingsOf(db: Kysely<Database>, userId: UserId): Promise<ActiveStanding[]> {
  const query = compiledOnce(db, 'access.standingsOf', [userId], ([user]) => {
    const mine = () =>
      db.selectFrom('members as m').where('m.userId', '=', user!).where('m.status', '=', 'active')
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
        'orgs.id as orgOf',
      ])
      .where('orgs.id', 'in', mine().select('m.orgId'))
      .unionAll(
        mine()
          .innerJoin('users', 'users.id', 'm.userId')
          .select([
            kind('member'),
            'm.id',
            'users.name as a',
            'users.email as b',
            'm.role as c',
            'm.status as d',
            'm.userId as e',
            'm.createdAt',
            'm.updatedAt',
            none().as('archivedAt'),
            'm.orgId as orgOf',
          ]),
      )
      .unionAll(
        mine()
          .innerJoin('teamMemberships as tm', (j) =>
            j.onRef('tm.orgId', '=', 'm.orgId').onRef('tm.actorId', '=', 'm.id'),
          )
          .select([
            kind('team'),
            'tm.teamId as id',
            none().as('a'),
            none().as('b'),
            none().as('c'),
            none().as('d'),
            none().as('e'),
            none().as('createdAt'),
            none().as('updatedAt'),
            none().as('archivedAt'),
            'tm.orgId as orgOf',
          ]),
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
            'grants.orgId as orgOf',
          ])
          .where('grants.orgId', 'in', mine().select('m.orgId'))
          // Held by the member or by one of its teams there (ids carry their type's prefix, as in `grantsFor`).
          .where('grants.subjectId', 'in', (eb) =>
            mine()
              .select('m.id')
              .where('m.orgId', '=', eb.ref('grants.orgId'))
              .unionAll(
                mine()
                  .innerJoin('teamMemberships as tm', (j) =>
                    j.onRef('tm.orgId', '=', 'm.orgId').onRef('tm.actorId', '=', 'm.id'),
                  )
                  .select('tm.teamId as id')
                  .where('m.orgId', '=', eb.ref('grants.orgId')),
              ),
          ),
      )
    return rows as never as { compile(): import('kysely').CompiledQuery<OrgStandingRow> }
  })
  const byOrg = new Map<string, OrgStandingRow[]>()
  for (const r of await runCompiled(db, query)) {
    const rows = byOrg.get(r.orgOf) ?? []
    rows.push(r)
    byOrg.set(r.orgOf, rows)
  }
  const out: ActiveStanding[] = []
  for (const orgId of [...byOrg.keys()].sort()) {
    const { org, member, ...rest } = standingFromRows(byOrg.get(orgId)!, orgId as OrgId)
    if (org && member) out.push({ ...rest, org, member })
  }
  return out
}
