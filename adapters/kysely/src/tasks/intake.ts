import type { CustomFieldId, LabelId, OrgId, ProjectId, ReadScope, TeamId } from '@workgraph/core'
import type { TaskIntake, TaskIntakeRepo, TaskIntakeRequest } from '@workgraph/core/storage'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { toField } from '../fields/definitions.ts'
import { toLabel } from '../labels/labels.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams, visibleProjectRef } from '../scope.ts'
import { toSettings } from '../teams/settings.ts'
import { toState, toTeam } from '../teams/teams.ts'

/**
 * One row of the intake's union: what `kind` says, in shared text columns (`a` to `h`, whose meaning
 * depends on the kind; numbers, flags and JSON are cast to text) and the record's timestamps.
 */
interface IntakeRow {
  kind: 'team' | 'settings' | 'state' | 'project' | 'label' | 'field'
  id: string
  a: string | null
  b: string | null
  c: string | null
  d: string | null
  e: string | null
  f: string | null
  g: string | null
  h: string | null
  createdAt: Date | string | null
  updatedAt: Date | string | null
  archivedAt: Date | string | null
}

type Text = RawBuilder<string | null>
const TEXT = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] as const
const TIMES = ['createdAt', 'updatedAt', 'archivedAt'] as const

const ref = (column: string): Text => sql<string | null>`${sql.ref(column)}`
const asText = (column: string): Text => sql<string | null>`cast(${sql.ref(column)} as text)`

/** The select list of one branch: its kind, its id, up to eight text values and three timestamps. */
function columns(kind: IntakeRow['kind'], id: string, texts: (Text | null)[], times: (string | null)[]) {
  return [
    sql<IntakeRow['kind']>`${sql.lit(kind)}`.as('kind'),
    sql<string>`${sql.ref(id)}`.as('id'),
    ...TEXT.map((name, i) => (texts[i] ?? sql<string | null>`null`).as(name)),
    ...TIMES.map((name, i) => {
      const column = times[i]
      return (column ? sql<Date | string | null>`${sql.ref(column)}` : sql<null>`null`).as(name)
    }),
  ]
}

/**
 * The intake of `tasks.create` in one statement (a `union all` of typed rows), where the create ran
 * seven: the team (twice: for the capability check, and as the caller sees it), its settings, its
 * active states, the project, the labels and the custom fields. Each branch has the predicate of the
 * read it replaces, and each kind maps through that read's mapping.
 */
export function taskIntakeRepo(db: Kysely<Database>): TaskIntakeRepo {
  return {
    async read(orgId, request, scope) {
      const { teamId, projectId, labelIds, fieldIds } = request
      // Compiled once per shape (Kysely's building and compiling of this union cost more than
      // running it); the scope's lists are arguments where a branch's predicate uses them.
      const scoped = !scope.orgWide && (projectId !== null || labelIds.length > 0)
      const teamIds = scoped ? scope.teamIds : []
      const projectIds = !scope.orgWide && projectId !== null ? scope.projectIds : []
      const project = projectId === null ? [] : [projectId]
      const args = [orgId, teamId, ...project, ...labelIds, ...fieldIds, ...teamIds, ...projectIds]
      const counts = [project, labelIds, fieldIds, teamIds, projectIds].map((l) => l.length)
      const shape = `tasks.intake:${scope.orgWide ? 'org' : 'scoped'}:${counts.join(':')}`
      const query = compiledOnce(db, shape, args, (stand) => {
        const take = (n: number, from: number) => stand.slice(from, from + n)
        let at = 2
        const [p, l, f, t, g] = counts.map((n) => {
          const part = take(n!, at)
          at += n!
          return part
        })
        const asked = {
          teamId: stand[1] as TeamId,
          projectId: (p![0] ?? null) as ProjectId | null,
          labelIds: l as LabelId[],
          fieldIds: f as CustomFieldId[],
        }
        return intakeQuery(db, stand[0] as OrgId, asked, { ...scope, teamIds: t!, projectIds: g! })
      })
      const rows = (await runCompiled(db, query)) as IntakeRow[]
      return intakeOf(orgId, request, rows)
    },
  }
}

function intakeQuery(db: Kysely<Database>, orgId: OrgId, request: TaskIntakeRequest, scope: ReadScope) {
  const { teamId, projectId, labelIds, fieldIds } = request
  const team = db
    .selectFrom('teams')
    .select(
      columns(
        'team',
        'teams.id',
        [ref('teams.name'), ref('teams.key'), ref('teams.description')],
        ['teams.createdAt', 'teams.updatedAt', 'teams.archivedAt'],
      ),
    )
    .where('teams.orgId', '=', orgId)
    .where('teams.id', '=', teamId)
  const settings = db
    .selectFrom('teamSettings as ts')
    .select(
      columns(
        'settings',
        'ts.teamId',
        [
          ref('ts.estimateScale'),
          asText('ts.autoCloseDays'),
          asText('ts.autoArchiveDays'),
          asText('ts.triageEnabled'),
          ref('ts.defaultStateId'),
          ref('ts.triageResponsibility'),
          ref('ts.triageAction'),
          asText('ts.triageMemberIds'),
        ],
        [null, 'ts.updatedAt', null],
      ),
    )
    .where('ts.orgId', '=', orgId)
    .where('ts.teamId', '=', teamId)
  const states = db
    .selectFrom('workflowStates as ws')
    .select(
      columns(
        'state',
        'ws.id',
        [ref('ws.name'), ref('ws.category'), ref('ws.color'), ref('ws.description'), asText('ws.position')],
        ['ws.createdAt', 'ws.updatedAt', 'ws.archivedAt'],
      ),
    )
    .where('ws.orgId', '=', orgId)
    .where('ws.teamId', '=', teamId)
    .where('ws.archivedAt', 'is', null)
  let query = team.unionAll(settings as never).unionAll(states as never)
  if (projectId) {
    let project = db
      .selectFrom('projects')
      .select(columns('project', 'projects.id', [], [null, null, 'projects.archivedAt']))
      .where('projects.orgId', '=', orgId)
      .where('projects.id', '=', projectId)
    if (!scope.orgWide)
      project = project.where((eb) => visibleProjectRef(eb, 'projects.id', 'projects.orgId', scope))
    query = query.unionAll(project as never)
  }
  if (labelIds.length > 0) {
    let labels = db
      .selectFrom('labels')
      .select(
        columns(
          'label',
          'labels.id',
          [
            ref('labels.teamId'),
            ref('labels.parentId'),
            asText('labels.isGroup'),
            ref('labels.name'),
            ref('labels.color'),
            ref('labels.description'),
            ref('labels.creatorId'),
          ],
          ['labels.createdAt', 'labels.updatedAt', 'labels.archivedAt'],
        ),
      )
      .where('labels.orgId', '=', orgId)
      .where('labels.id', 'in', [...labelIds])
    if (!scope.orgWide)
      labels = labels.where((eb) =>
        eb.or([eb('labels.teamId', 'is', null), inVisibleTeams(eb, 'labels.teamId', scope)]),
      )
    query = query.unionAll(labels as never)
  }
  if (fieldIds.length > 0) {
    const fields = db
      .selectFrom('customFields as cf')
      .select(
        columns(
          'field',
          'cf.id',
          [
            ref('cf.name'),
            ref('cf.description'),
            ref('cf.type'),
            asText('cf.recordKinds'),
            asText('cf.teamIds'),
            asText('cf.options'),
          ],
          ['cf.createdAt', 'cf.updatedAt', 'cf.archivedAt'],
        ),
      )
      .where('cf.orgId', '=', orgId)
      .where('cf.id', 'in', [...fieldIds])
    query = query.unionAll(fields as never)
  }
  return query
}

function intakeOf(orgId: OrgId, { teamId }: TaskIntakeRequest, rows: IntakeRow[]): TaskIntake {
  const intake: TaskIntake = { team: null, settings: null, states: [], project: null, labels: [], fields: [] }
  const times = (r: IntakeRow) => ({
    createdAt: r.createdAt as Date | string,
    updatedAt: r.updatedAt as Date | string,
    archivedAt: r.archivedAt,
  })
  for (const r of rows) {
    if (r.kind === 'team') {
      intake.team = toTeam({
        orgId,
        id: r.id,
        name: r.a!,
        key: r.b!,
        description: r.c,
        nextNumber: 0,
        ...times(r),
      })
    } else if (r.kind === 'settings') {
      intake.settings = toSettings({
        orgId,
        teamId: r.id,
        estimateScale: r.a,
        autoCloseDays: r.b,
        autoArchiveDays: r.c,
        triageEnabled: r.d,
        defaultStateId: r.e,
        triageResponsibility: r.f,
        triageAction: r.g,
        triageMemberIds: r.h,
        updatedAt: r.updatedAt,
      })
    } else if (r.kind === 'state') {
      intake.states.push(
        toState({
          orgId,
          id: r.id,
          teamId,
          name: r.a!,
          category: r.b!,
          color: r.c!,
          description: r.d,
          position: Number(r.e),
          ...times(r),
        }),
      )
    } else if (r.kind === 'project') {
      intake.project = { archived: r.archivedAt !== null }
    } else if (r.kind === 'label') {
      intake.labels.push(
        toLabel({
          orgId,
          id: r.id,
          teamId: r.a,
          parentId: r.b,
          isGroup: r.c,
          name: r.d,
          nameKey: null,
          color: r.e,
          description: r.f,
          creatorId: r.g,
          ...times(r),
        }),
      )
    } else {
      intake.fields.push(
        toField({
          orgId,
          id: r.id,
          name: r.a,
          description: r.b,
          type: r.c,
          recordKinds: r.d,
          teamIds: r.e,
          options: r.f,
          ...times(r),
        }),
      )
    }
  }
  // Board order, as `states.listForTeam` reads the active ones.
  intake.states.sort((x, y) => x.position - y.position || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  return intake
}
