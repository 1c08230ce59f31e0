import type { OrgId, StateId, Team, TeamId, WorkflowState } from '@workgraph/core'
import type { StateRepo, TeamRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { compiledOnce, runCompiled } from '../driver/fast-path.ts'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type TeamRow = Omit<Database['teams'], 'createdAt' | 'updatedAt' | 'archivedAt'> & {
  createdAt: Date | string
  updatedAt: Date | string
  archivedAt: Date | string | null
}

export function toTeam({ nextNumber: _n, ...r }: TeamRow): Team {
  return {
    ...r,
    id: r.id as TeamId,
    orgId: r.orgId as OrgId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    archivedAt: isoOrNull(r.archivedAt),
  }
}

export function teamRepo(db: Kysely<Database>): TeamRepo {
  return {
    async insert(team) {
      await db
        .insertInto('teams')
        .values({ ...team, nextNumber: 0 })
        .execute()
    },
    async get(orgId, id, scope) {
      let q = db.selectFrom('teams').selectAll().where('orgId', '=', orgId).where('id', '=', id)
      if (scope && !scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teams.id', scope))
      const row = await q.executeTakeFirst()
      return row ? toTeam(row) : null
    },
    async keyTaken(orgId, key, exceptId) {
      let q = db.selectFrom('teams').select('id').where('orgId', '=', orgId).where('key', '=', key)
      if (exceptId) q = q.where('id', '!=', exceptId)
      return Boolean(await q.executeTakeFirst())
    },
    async list(orgId, filter, page, scope) {
      let q = db.selectFrom('teams').selectAll().where('orgId', '=', orgId)
      if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teams.id', scope))
      if (filter.archived === true) q = q.where('archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('archivedAt', 'is', null)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toTeam)
    },
    async update(orgId, id, patch) {
      await db.updateTable('teams').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async nextTaskNumber(orgId, id) {
      // Every create runs it: compiled once.
      const [row] = await runCompiled(
        db,
        compiledOnce(db, 'teams.nextTaskNumber', [orgId, id], ([org, team]) => nextNumber(db, org!, team!)),
      )
      if (!row) throw new Error(`No team ${id} to number a task in`)
      return row.nextNumber
    },
  }
}

type StateRow = Omit<Database['workflowStates'], 'createdAt' | 'updatedAt' | 'archivedAt'> & {
  createdAt: Date | string
  updatedAt: Date | string
  archivedAt: Date | string | null
}

export function toState(r: StateRow): WorkflowState {
  return {
    ...r,
    id: r.id as StateId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId,
    category: r.category as WorkflowState['category'],
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    archivedAt: isoOrNull(r.archivedAt),
  }
}

export function stateRepo(db: Kysely<Database>): StateRepo {
  return {
    async insert(state) {
      await db.insertInto('workflowStates').values(state).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('workflowStates')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toState(row) : null
    },
    async listForTeam(orgId, teamId, filter) {
      let q = db
        .selectFrom('workflowStates')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
      if (!filter.includeArchived) q = q.where('archivedAt', 'is', null)
      const rows = await q
        .orderBy('archivedAt', (ob) => ob.nullsFirst())
        .orderBy('position')
        .orderBy('id')
        .execute()
      return rows.map(toState)
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('workflowStates')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async countTasks(orgId, id) {
      const row = await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('orgId', '=', orgId)
        .where('stateId', '=', id)
        .where('deletedAt', 'is', null)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
  }
}

/** The team's task counter moved on by one (the caller says what it returns; `nextNumber` first). */
export function nextNumber(db: Kysely<Database>, orgId: string, teamId: string) {
  return db
    .updateTable('teams')
    .set((eb) => ({ nextNumber: eb('nextNumber', '+', 1) }))
    .where('orgId', '=', orgId)
    .where('id', '=', teamId)
    .returning('nextNumber')
}
