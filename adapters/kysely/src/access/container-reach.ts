import type { ContainerReach, OrgId } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../schema.ts'

/** `column in (list)`, or nothing at all for an empty list (SQL has no empty `in`). */
function inList<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  column: string,
  list: readonly string[],
): Expression<SqlBool> {
  return list.length === 0 ? sql<SqlBool>`1 = 0` : eb(column as never, 'in', [...list] as never)
}

type Kind = 'initiative' | 'program' | 'project'

function collect(rows: { kind: string; id: string }[]): ContainerReach {
  const sets: Record<Kind, Set<string>> = { initiative: new Set(), program: new Set(), project: new Set() }
  for (const r of rows) sets[r.kind as Kind].add(r.id)
  return {
    initiativeIds: [...sets.initiative],
    programIds: [...sets.program],
    projectIds: [...sets.project],
  }
}

/**
 * What grants on these programs and initiatives reach, read from the initiative closure table (kept
 * in the writing transaction by the initiatives repo): the initiatives below the granted ones
 * (themselves included), the programs they link plus the granted ones, and every project linked to
 * any of those initiatives or programs. Not used by storage: `reachByRecursion` returns the same sets
 * and measured faster on both databases (docs/performance-log.md, "Container grants"); kept for
 * bench/container-grants.ts, which checks the two agree and times them.
 */
export async function reachByClosure(
  db: Kysely<Database>,
  orgId: OrgId,
  from: { programIds: readonly string[]; initiativeIds: readonly string[] },
): Promise<ContainerReach> {
  const initiatives = db
    .selectFrom('initiativeClosure as rc')
    .select('rc.descendantId as id')
    .where('rc.orgId', '=', orgId)
    .where((eb) => inList(eb, 'rc.ancestorId', from.initiativeIds))
  const programs = db
    .selectFrom('initiativePrograms as rip')
    .select('rip.programId as id')
    .where('rip.orgId', '=', orgId)
    .where('rip.initiativeId', 'in', initiatives)
    .union(
      db
        .selectFrom('programs as rp')
        .select('rp.id')
        .where('rp.orgId', '=', orgId)
        .where((eb) => inList(eb, 'rp.id', from.programIds)),
    )
  const rows = await db
    .selectFrom('initiativeClosure as c')
    .select([sql<string>`'initiative'`.as('kind'), 'c.descendantId as id'])
    .where('c.orgId', '=', orgId)
    .where((eb) => inList(eb, 'c.ancestorId', from.initiativeIds))
    .unionAll(db.selectFrom(programs.as('pr')).select([sql<string>`'program'`.as('kind'), 'pr.id']))
    .unionAll(
      db
        .selectFrom('initiativeProjects as ip')
        .select([sql<string>`'project'`.as('kind'), 'ip.projectId as id'])
        .where('ip.orgId', '=', orgId)
        .where('ip.initiativeId', 'in', initiatives),
    )
    .unionAll(
      db
        .selectFrom('programProjects as pp')
        .select([sql<string>`'project'`.as('kind'), 'pp.projectId as id'])
        .where('pp.orgId', '=', orgId)
        .where('pp.programId', 'in', db.selectFrom(programs.as('pr2')).select('pr2.id')),
    )
    .execute()
  return collect(rows)
}

/**
 * What grants on these programs and initiatives reach, in one statement: `WITH RECURSIVE` walks
 * `initiatives.parent_id` down from the granted initiatives (`initiatives_parent` index), then the
 * link tables give their programs (plus the granted ones) and the projects of both. What storage
 * uses, once per request for actors holding such grants; chosen over the closure table by
 * measurement (docs/performance-log.md, "Container grants").
 */
export async function reachByRecursion(
  db: Kysely<Database>,
  orgId: OrgId,
  from: { programIds: readonly string[]; initiativeIds: readonly string[] },
): Promise<ContainerReach> {
  const list = (ids: readonly string[]) =>
    ids.length === 0 ? sql`(null)` : sql`(${sql.join(ids.map((id) => sql`${id}`))})`
  const { rows } = await sql<{ kind: string; id: string }>`
    with recursive below(id) as (
      select id from initiatives where org_id = ${orgId} and id in ${list(from.initiativeIds)}
      union
      select i.id from initiatives i join below b on i.parent_id = b.id where i.org_id = ${orgId}
    ),
    progs(id) as (
      select program_id from initiative_programs
        where org_id = ${orgId} and initiative_id in (select id from below)
      union
      select id from programs where org_id = ${orgId} and id in ${list(from.programIds)}
    )
    select 'initiative' as kind, id from below
    union all select 'program' as kind, id from progs
    union all select 'project' as kind, project_id as id from initiative_projects
      where org_id = ${orgId} and initiative_id in (select id from below)
    union all select 'project' as kind, project_id as id from program_projects
      where org_id = ${orgId} and program_id in (select id from progs)
  `.execute(db)
  return collect(rows)
}

/**
 * The programs and initiatives holding a project, a program or an initiative: the programs holding
 * the project (or the program itself), and every initiative linking the project or one of those
 * programs (or the initiative itself) with all their ancestors. One query, from the indexes on the
 * link tables and the closure table's descendant index.
 */
export async function containersAbove(
  db: Kysely<Database>,
  orgId: OrgId,
  holder: { type: 'project' | 'program' | 'initiative'; id: string },
): Promise<{ programIds: string[]; initiativeIds: string[] }> {
  const programs =
    holder.type === 'project'
      ? db
          .selectFrom('programProjects as ap')
          .select('ap.programId as id')
          .where('ap.orgId', '=', orgId)
          .where('ap.projectId', '=', holder.id)
      : db
          .selectFrom('programs as ap')
          .select('ap.id')
          .where('ap.orgId', '=', orgId)
          .where('ap.id', '=', holder.type === 'program' ? holder.id : '')
  let linking = db
    .selectFrom('initiativePrograms as aip')
    .select('aip.initiativeId as id')
    .where('aip.orgId', '=', orgId)
    .where('aip.programId', 'in', programs)
  if (holder.type === 'project')
    linking = linking.union(
      db
        .selectFrom('initiativeProjects as aij')
        .select('aij.initiativeId as id')
        .where('aij.orgId', '=', orgId)
        .where('aij.projectId', '=', holder.id),
    )
  if (holder.type === 'initiative')
    linking = linking.union(
      db
        .selectFrom('initiatives as ai')
        .select('ai.id')
        .where('ai.orgId', '=', orgId)
        .where('ai.id', '=', holder.id),
    )
  const rows = await programs
    .select(sql<string>`'program'`.as('kind'))
    .unionAll(
      db
        .selectFrom('initiativeClosure as ac')
        .select(['ac.ancestorId as id', sql<string>`'initiative'`.as('kind')])
        .where('ac.orgId', '=', orgId)
        .where('ac.descendantId', 'in', db.selectFrom(linking.as('l')).select('l.id')),
    )
    .execute()
  const reach = collect(rows)
  return { programIds: [...reach.programIds], initiativeIds: [...reach.initiativeIds] }
}
