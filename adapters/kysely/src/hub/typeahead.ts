import type { OrgId, ReadScope, TypeaheadHit, TypeaheadType } from '@workgraph/core'
import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { visibleProjectRef } from '../initiatives/initiative-rows.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams, visibleInitiativeRef, visibleProgramRef, visibleTask } from '../scope.ts'

type Eb = ExpressionBuilder<Database, keyof Database>
// The branches select the same columns from different tables.
type AnyQuery = any

/** `column` begins with the prefix, ignoring (ASCII) case; `%`, `_` and `\` match themselves. */
function startsWith(column: string, prefix: string) {
  const escaped = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`${escaped}%`} escape '\\'`
}

const always = () => sql<SqlBool>`1 = 1`

/** A task key `KEY-123` split into its team key and number prefix; null when the prefix is not one. */
function keyParts(prefix: string): { key: string; number: string } | null {
  const m = /^([A-Za-z][A-Za-z0-9]*)-(\d*)$/.exec(prefix)
  return m ? { key: m[1]!.toUpperCase(), number: m[2]! } : null
}

/**
 * One query per type, each with its permission predicate: people (active members), teams the scope
 * reaches, projects, programs (every member may view one), initiatives, milestones (of visible
 * projects), views (the member's own and team views of visible teams), and tasks by key.
 */
export async function typeaheadHits(
  db: Kysely<Database>,
  orgId: OrgId,
  prefix: string,
  types: readonly TypeaheadType[],
  viewer: { memberId: string; scope: ReadScope },
  limit: number,
): Promise<TypeaheadHit[]> {
  const { scope } = viewer
  const out: TypeaheadHit[] = []
  const run = async (type: TypeaheadType, q: AnyQuery, nameColumn: string) => {
    const rows = (await q
      .orderBy(sql`lower(${sql.ref(nameColumn)})`)
      .orderBy('id')
      .limit(limit)
      .execute()) as Array<{
      id: string
      name: string
      key: string | null
    }>
    for (const r of rows) out.push({ type, id: r.id, name: r.name, key: r.key ?? null })
  }
  for (const type of types) {
    if (type === 'person') {
      await run(
        type,
        db
          .selectFrom('members')
          .innerJoin('users', 'users.id', 'members.userId')
          .select(['members.id as id', 'users.name as name', sql<null>`null`.as('key')])
          .where('members.orgId', '=', orgId)
          .where('members.status', '=', 'active')
          .where(startsWith('users.name', prefix)),
        'users.name',
      )
    } else if (type === 'team') {
      await run(
        type,
        db
          .selectFrom('teams')
          .select(['id', 'name', 'key'])
          .where('orgId', '=', orgId)
          .where('archivedAt', 'is', null)
          .where((eb) => eb.or([startsWith('teams.name', prefix), startsWith('teams.key', prefix)]))
          .where((eb) => (scope.orgWide ? always() : inVisibleTeams(eb, 'teams.id', scope))),
        'teams.name',
      )
    } else if (type === 'project') {
      await run(
        type,
        db
          .selectFrom('projects')
          .select(['id', 'name', sql<null>`null`.as('key')])
          .where('orgId', '=', orgId)
          .where('archivedAt', 'is', null)
          .where(startsWith('projects.name', prefix))
          .where((eb) => visibleProjectRef(eb, 'projects.id', 'projects.orgId', scope)),
        'projects.name',
      )
    } else if (type === 'program') {
      await run(
        type,
        db
          .selectFrom('programs')
          .select(['id', 'name', sql<null>`null`.as('key')])
          .where('orgId', '=', orgId)
          .where('archivedAt', 'is', null)
          .where(startsWith('programs.name', prefix))
          .where((eb) => visibleProgramRef(eb, 'programs.id', 'programs.orgId', scope)),
        'programs.name',
      )
    } else if (type === 'initiative') {
      await run(
        type,
        db
          .selectFrom('initiatives')
          .select(['id', 'name', sql<null>`null`.as('key')])
          .where('orgId', '=', orgId)
          .where('archivedAt', 'is', null)
          .where(startsWith('initiatives.name', prefix))
          .where((eb) => visibleInitiativeRef(eb, 'initiatives.id', 'initiatives.orgId', scope)),
        'initiatives.name',
      )
    } else if (type === 'milestone') {
      await run(
        type,
        db
          .selectFrom('milestones')
          .innerJoin('projects', (j) =>
            j
              .onRef('projects.orgId', '=', 'milestones.orgId')
              .onRef('projects.id', '=', 'milestones.projectId'),
          )
          .select(['milestones.id as id', 'milestones.name as name', sql<null>`null`.as('key')])
          .where('milestones.orgId', '=', orgId)
          .where('projects.archivedAt', 'is', null)
          .where(startsWith('milestones.name', prefix))
          .where((eb) => visibleProjectRef(eb, 'milestones.projectId', 'milestones.orgId', scope)),
        'milestones.name',
      )
    } else if (type === 'view') {
      await run(
        type,
        db
          .selectFrom('savedViews')
          .select(['id', 'name', sql<null>`null`.as('key')])
          .where('orgId', '=', orgId)
          .where(startsWith('savedViews.name', prefix))
          .where((eb) =>
            eb.or([
              eb.and([eb('teamId', 'is', null), eb('ownerId', '=', viewer.memberId)]),
              scope.orgWide ? eb('teamId', 'is not', null) : inVisibleTeams(eb, 'teamId', scope),
            ]),
          ),
        'savedViews.name',
      )
    } else {
      const parts = keyParts(prefix)
      if (!parts) continue
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('teams', (j) =>
          j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
        )
        .select([
          'tasks.id as id',
          'tasks.title as name',
          sql<string>`teams.key || '-' || tasks.number`.as('key'),
        ])
        .where('tasks.orgId', '=', orgId)
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
        .where(sql<SqlBool>`upper(teams.key) = ${parts.key}`)
        .where(sql<SqlBool>`cast(tasks.number as text) like ${`${parts.number}%`}`)
        .where((eb) => (scope.orgWide ? always() : visibleTask(eb as unknown as Eb, 'tasks', scope)))
        // Shorter numbers first: `ENG-4` before `ENG-41`.
        .orderBy(sql`length(cast(tasks.number as text))`)
        .orderBy('tasks.number')
        .limit(limit)
        .execute()
      for (const r of rows) out.push({ type, id: r.id, name: r.name, key: r.key })
    }
  }
  return out
}
