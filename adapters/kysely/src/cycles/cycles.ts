import type { CycleId, CycleSettings, OrgId, StateCategory, TaskId, TeamId } from '@workgraph/core'
import type { CycleRecord, CycleRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Row = { [K in keyof Database['cycles']]: unknown }

function toCycle(r: Row): CycleRecord {
  return {
    id: r.id as CycleId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId,
    number: Number(r.number),
    name: r.name as string | null,
    description: r.description as string | null,
    startsAt: iso(r.startsAt as string),
    endsAt: iso(r.endsAt as string),
    completedAt: isoOrNull(r.completedAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

export function cycleRepo(db: Kysely<Database>, purge: Purge): CycleRepo {
  const ofTeam = (orgId: OrgId, teamId: TeamId) =>
    db.selectFrom('cycles').selectAll().where('orgId', '=', orgId).where('teamId', '=', teamId)

  return {
    async insert(cycle) {
      await db.insertInto('cycles').values(cycle).execute()
    },
    async get(orgId, id, scope) {
      let q = db.selectFrom('cycles').selectAll().where('orgId', '=', orgId).where('id', '=', id)
      if (scope && !scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'cycles.teamId', scope))
      const row = await q.executeTakeFirst()
      return row ? toCycle(row) : null
    },
    async list(orgId, filter, page, scope) {
      let q = ofTeam(orgId, filter.teamId)
      if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'cycles.teamId', scope))
      if (filter.archived !== null) q = q.where('archivedAt', filter.archived ? 'is not' : 'is', null)
      const status = filter.status
      if (status?.value === 'completed') q = q.where('completedAt', 'is not', null)
      else if (status) {
        q = q.where('completedAt', 'is', null)
        if (status.value === 'upcoming') q = q.where('startsAt', '>', status.now)
        if (status.value === 'active')
          q = q.where('startsAt', '<=', status.now).where('endsAt', '>', status.now)
        if (status.value === 'past') q = q.where('endsAt', '<=', status.now)
      }
      const rows = await keysetPage(q, page, { sort: 'cycles.startsAt', id: 'cycles.id' }).execute()
      return rows.map(toCycle)
    },
    async update(orgId, id, patch) {
      await db.updateTable('cycles').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      // Its tasks stay, out of any cycle.
      await purge(orgId, 'cycle', [id])
    },
    async overlapping(orgId, teamId, window, exceptId) {
      let q = ofTeam(orgId, teamId)
        .where('startsAt', '<', window.endsAt)
        .where('endsAt', '>', window.startsAt)
      if (exceptId) q = q.where('id', '!=', exceptId)
      return (await q.orderBy('startsAt').execute()).map(toCycle)
    },
    async ofTeam(orgId, teamId) {
      return (await ofTeam(orgId, teamId).orderBy('startsAt').orderBy('id').execute()).map(toCycle)
    },
    async openAfter(orgId, teamId, after) {
      const rows = await ofTeam(orgId, teamId)
        .where('completedAt', 'is', null)
        .where('endsAt', '>', after)
        .orderBy('startsAt')
        .orderBy('id')
        .execute()
      return rows.map(toCycle)
    },
    async last(orgId, teamId) {
      const row = await ofTeam(orgId, teamId)
        .orderBy('endsAt', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst()
      return row ? toCycle(row) : null
    },
    async nextNumber(orgId, teamId) {
      const row = await db
        .selectFrom('cycles')
        .select((eb) => eb.fn.max('number').as('max'))
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      return Number(row?.max ?? 0) + 1
    },
    async progress(orgId, id) {
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select((eb) => [
          's.category as category',
          eb.fn.countAll().as('tasks'),
          eb.fn.coalesce(eb.fn.sum('tasks.estimate'), eb.lit(0)).as('points'),
        ])
        .where('tasks.orgId', '=', orgId)
        .where('tasks.cycleId', '=', id)
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
        .groupBy('s.category')
        .execute()
      return rows.map((r) => ({
        category: r.category as StateCategory,
        tasks: Number(r.tasks),
        points: Number(r.points),
      }))
    },
    async unfinishedTasks(orgId, id) {
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select('tasks.id')
        .where('tasks.orgId', '=', orgId)
        .where('tasks.cycleId', '=', id)
        .where('tasks.deletedAt', 'is', null)
        .where('s.category', 'not in', ['completed', 'canceled'])
        .orderBy('tasks.id')
        .execute()
      return rows.map((r) => r.id as TaskId)
    },
    async ended(now, limit) {
      const rows = await db
        .selectFrom('cycles')
        .select(['orgId', 'id', 'teamId'])
        .where('completedAt', 'is', null)
        .where('endsAt', '<=', now)
        .orderBy('endsAt')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, id: r.id as CycleId, teamId: r.teamId as TeamId }))
    },
    async getSettings(orgId, teamId) {
      const r = await db
        .selectFrom('cycleSettings')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      if (!r) return null
      return {
        teamId: r.teamId as TeamId,
        enabled: Number(r.enabled) === 1,
        durationWeeks: r.durationWeeks,
        cooldownWeeks: r.cooldownWeeks,
        startWeekday: r.startWeekday as CycleSettings['startWeekday'],
        autoCreateCount: r.autoCreateCount,
        updatedAt: iso(r.updatedAt),
      }
    },
    async putSettings(orgId, s) {
      const values = {
        enabled: s.enabled ? 1 : 0,
        durationWeeks: s.durationWeeks,
        cooldownWeeks: s.cooldownWeeks,
        startWeekday: s.startWeekday,
        autoCreateCount: s.autoCreateCount,
        updatedAt: s.updatedAt,
      }
      await db
        .insertInto('cycleSettings')
        .values({ orgId, teamId: s.teamId, ...values })
        .onConflict((oc) => oc.columns(['orgId', 'teamId']).doUpdateSet(values))
        .execute()
    },
    async teamsWithCadence() {
      const rows = await db
        .selectFrom('cycleSettings')
        .innerJoin('teams', (j) =>
          j.onRef('teams.orgId', '=', 'cycleSettings.orgId').onRef('teams.id', '=', 'cycleSettings.teamId'),
        )
        .select(['cycleSettings.orgId', 'cycleSettings.teamId'])
        .where('cycleSettings.enabled', '=', 1)
        .where('teams.archivedAt', 'is', null)
        .orderBy('cycleSettings.orgId')
        .orderBy('cycleSettings.teamId')
        .execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, teamId: r.teamId as TeamId }))
    },
  }
}
