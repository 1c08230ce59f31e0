import type { CadenceDefault, UpdateRequest } from '@workgraph/core'
import type {
  CadenceParentType,
  DueCandidate,
  UpdateDueRepo,
  UpdateRequestRepo,
  UpdateSettingsRepo,
} from '@workgraph/core/storage'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { iso, isoOrNull } from '../normalize.ts'
import { latestUpdate, visibleProject } from '../projects/project-rows.ts'
import type { Database } from '../schema.ts'
import { visibleInitiativeRef, visibleProgramRef } from '../scope.ts'
import { latestUpdate as latestOf } from './latest.ts'

export function updateSettingsRepo(db: Kysely<Database>): UpdateSettingsRepo {
  return {
    async get(orgId) {
      // Read in every workspace of a `hub.today`: built and compiled once.
      const query = compiledOnce(db, 'updateSettings.get', [orgId], ([org]) =>
        db.selectFrom('updateSettings').selectAll().where('orgId', '=', org!),
      )
      const rows = await runCompiled(db, query)
      const defaults: Partial<Record<CadenceParentType, CadenceDefault>> = {}
      let updatedAt: string | null = null
      for (const r of rows) {
        defaults[r.subjectType as CadenceParentType] = {
          everyWeeks: Number(r.everyWeeks),
          weekday: r.weekday as CadenceDefault['weekday'],
          hour: Number(r.hour),
        }
        const at = iso(r.updatedAt as string)
        if (updatedAt === null || at > updatedAt) updatedAt = at
      }
      return { defaults, updatedAt }
    },
    async put(orgId, subjectType, cadence, at) {
      await db
        .insertInto('updateSettings')
        .values({ orgId, subjectType, ...cadence, updatedAt: at })
        .onConflict((oc) => oc.columns(['orgId', 'subjectType']).doUpdateSet({ ...cadence, updatedAt: at }))
        .execute()
    },
  }
}

export function updateDueRepo(db: Kysely<Database>): UpdateDueRepo {
  return {
    // The kinds wanted are branches of one `union all` (a hub read asks for all three in every workspace).
    async candidates(orgId, filter, scope) {
      const want = (type: CadenceParentType) => !filter.subjectType || filter.subjectType === type
      const branches: Array<SelectQueryBuilder<Database, keyof Database, CandidateRow>> = []
      if (want('project')) {
        let q = db
          .selectFrom('projects')
          .innerJoin('projectStatuses as st', (j) =>
            j.onRef('st.orgId', '=', 'projects.orgId').onRef('st.id', '=', 'projects.statusId'),
          )
          .select([
            sql<CadenceParentType>`${sql.lit('project')}`.as('kind'),
            'projects.id',
            'projects.name',
            'projects.leadId as ownerId',
            'projects.createdAt',
            'projects.updateCadence',
            'projects.updateWeekday',
          ])
          .select((eb) => latestUpdate(eb).select('su.createdAt').as('lastUpdateAt'))
          .where('projects.orgId', '=', orgId)
          .where('projects.archivedAt', 'is', null)
          .where('projects.updateCadence', '!=', 'none')
          .where('st.category', 'not in', ['completed', 'canceled'])
        if (filter.ownerId) q = q.where('projects.leadId', '=', filter.ownerId)
        if (!scope.orgWide) q = q.where((eb) => visibleProject(eb, scope))
        branches.push(q as never)
      }
      if (want('program')) {
        // The programs the reader may view (programs/service.ts).
        let q = db
          .selectFrom('programs')
          .select([
            sql<CadenceParentType>`${sql.lit('program')}`.as('kind'),
            'programs.id',
            'programs.name',
            'programs.ownerId',
            'programs.createdAt',
            sql<string | null>`null`.as('updateCadence'),
            sql<string | null>`null`.as('updateWeekday'),
          ])
          .select((eb) =>
            latestOf(eb, 'program', 'programs.id', 'programs.orgId')
              .select('su.createdAt')
              .as('lastUpdateAt'),
          )
          .where('programs.orgId', '=', orgId)
          .where('programs.archivedAt', 'is', null)
          .where('programs.status', '!=', 'retired')
          .where((eb) => visibleProgramRef(eb, 'programs.id', 'programs.orgId', scope))
        if (filter.ownerId) q = q.where('programs.ownerId', '=', filter.ownerId)
        branches.push(q as never)
      }
      if (want('initiative')) {
        let q = db
          .selectFrom('initiatives')
          .select([
            sql<CadenceParentType>`${sql.lit('initiative')}`.as('kind'),
            'initiatives.id',
            'initiatives.name',
            'initiatives.ownerId',
            'initiatives.createdAt',
            sql<string | null>`null`.as('updateCadence'),
            sql<string | null>`null`.as('updateWeekday'),
          ])
          .select((eb) =>
            latestOf(eb, 'initiative', 'initiatives.id', 'initiatives.orgId')
              .select('su.createdAt')
              .as('lastUpdateAt'),
          )
          .where('initiatives.orgId', '=', orgId)
          .where('initiatives.archivedAt', 'is', null)
          .where('initiatives.status', 'in', ['planned', 'active'])
          .where((eb) => visibleInitiativeRef(eb, 'initiatives.id', 'initiatives.orgId', scope))
        if (filter.ownerId) q = q.where('initiatives.ownerId', '=', filter.ownerId)
        branches.push(q as never)
      }
      const [first, ...rest] = branches
      if (!first) return []
      const rows = await rest.reduce((all, q) => all.unionAll(q), first).execute()
      // Projects, then programs, then initiatives, as the kinds were read one after the other.
      const order = { project: 0, program: 1, initiative: 2 }
      return rows.sort((a, b) => order[a.kind] - order[b.kind]).map(candidate)
    },
  }
}

/** One candidate of any kind; the cadence columns are a project's own (null for the others). */
interface CandidateRow {
  kind: CadenceParentType
  id: string
  name: string
  ownerId: string | null
  createdAt: unknown
  updateCadence: string | null
  updateWeekday: string | null
  lastUpdateAt: unknown
}

function candidate(r: CandidateRow): DueCandidate {
  type Cadence = NonNullable<DueCandidate['cadence']>
  return {
    subjectType: r.kind,
    subjectId: r.id,
    name: r.name,
    ownerId: r.ownerId,
    createdAt: iso(r.createdAt as string),
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    cadence:
      r.kind === 'project'
        ? {
            updateCadence: r.updateCadence as Cadence['updateCadence'],
            updateWeekday: r.updateWeekday as Cadence['updateWeekday'],
          }
        : null,
  }
}

export function updateRequestRepo(db: Kysely<Database>): UpdateRequestRepo {
  return {
    async insert(request) {
      await db.insertInto('updateRequests').values(request).execute()
    },
    async latest(orgId, subjectType, subjectId) {
      const r = await db
        .selectFrom('updateRequests')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('subjectType', '=', subjectType)
        .where('subjectId', '=', subjectId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst()
      if (!r) return null
      return {
        id: r.id as UpdateRequest['id'],
        orgId: r.orgId as UpdateRequest['orgId'],
        subjectType: r.subjectType as UpdateRequest['subjectType'],
        subjectId: r.subjectId,
        requesterId: r.requesterId,
        recipientId: r.recipientId as UpdateRequest['recipientId'],
        note: r.note,
        createdAt: iso(r.createdAt as string),
      }
    },
  }
}
