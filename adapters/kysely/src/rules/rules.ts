import type {
  AutomationRule,
  AutomationRuleId,
  AutomationRun,
  AutomationRunId,
  EventId,
  MemberId,
  OrgId,
  TaskId,
  TeamId,
} from '@workgraph/core'
import type { AutomationRuleRepo, AutomationRunRepo, RuleEngineRepo } from '@workgraph/core/storage'
import { type Kysely, type Selectable, sql } from 'kysely'
import { eventPositions } from '../kernel/event-positions.ts'
import { keysetPage } from '../keyset.ts'
import { int, iso, json } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'

const toRule = (r: Selectable<Database['automationRules']>): AutomationRule => ({
  id: r.id as AutomationRuleId,
  orgId: r.orgId as OrgId,
  teamId: r.teamId as TeamId,
  name: r.name,
  enabled: Boolean(r.enabled),
  trigger: json(r.trigger),
  conditions: json(r.conditions),
  actions: json(r.actions),
  authorId: r.authorId as MemberId,
  createdAt: iso(r.createdAt),
  updatedAt: iso(r.updatedAt),
})

// JSON columns hold objects and arrays only, which both databases read back the same way.
const columns = (rule: Partial<AutomationRule>) => ({
  ...(rule.trigger ? { trigger: JSON.stringify(rule.trigger) } : {}),
  ...(rule.conditions ? { conditions: JSON.stringify(rule.conditions) } : {}),
  ...(rule.actions ? { actions: JSON.stringify(rule.actions) } : {}),
  ...(rule.enabled !== undefined ? { enabled: rule.enabled ? 1 : 0 } : {}),
})

export function automationRuleRepo(db: Kysely<Database>): AutomationRuleRepo {
  const ofTeam = (orgId: OrgId, teamId: TeamId) =>
    db.selectFrom('automationRules').selectAll().where('orgId', '=', orgId).where('teamId', '=', teamId)
  return {
    async insert(rule) {
      await db
        .insertInto('automationRules')
        .values({ ...rule, ...columns(rule) } as never)
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('automationRules')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toRule(row) : null
    },
    async listForTeam(orgId, teamId, page) {
      return (await keysetPage(ofTeam(orgId, teamId), page, { sort: 'id', id: 'id' }).execute()).map(toRule)
    },
    async anyEnabled(orgId) {
      const row = await db
        .selectFrom('automationRules')
        .select('id')
        .where('orgId', '=', orgId)
        .where('enabled', '=', 1)
        .limit(1)
        .executeTakeFirst()
      return row !== undefined
    },
    async enabledForTeam(orgId, teamId, limit) {
      const rows = await ofTeam(orgId, teamId).where('enabled', '=', 1).orderBy('id').limit(limit).execute()
      return rows.map(toRule)
    },
    async update(orgId, id, patch) {
      const { trigger: _t, conditions: _c, actions: _a, enabled: _e, ...rest } = patch
      await db
        .updateTable('automationRules')
        .set({ ...rest, ...columns(patch) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('automationRuns').where('orgId', '=', orgId).where('ruleId', '=', id).execute()
      await db.deleteFrom('automationRules').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
  }
}

export function automationRunRepo(db: Kysely<Database>): AutomationRunRepo {
  return {
    async insert(run) {
      await db.insertInto('automationRuns').values(run).execute()
    },
    async list(orgId, ruleId, page) {
      const q = db
        .selectFrom('automationRuns')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('ruleId', '=', ruleId)
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(
        (r): AutomationRun => ({
          id: r.id as AutomationRunId,
          ruleId: r.ruleId as AutomationRuleId,
          taskId: r.taskId as TaskId,
          eventId: r.eventId as EventId,
          outcome: r.outcome as AutomationRun['outcome'],
          error: r.error,
          depth: int(r.depth),
          createdAt: iso(r.createdAt),
        }),
      )
    },
  }
}

export function ruleEngineRepo(db: Kysely<Database>, dialect: Dialect): RuleEngineRepo {
  return {
    ...eventPositions(db, dialect, 'ruleEnginePositions'),
    async end(orgId) {
      const row = await db
        .selectFrom('orgEventCounters')
        .select('lastSeq')
        .where('orgId', '=', orgId)
        .executeTakeFirst()
      return row ? int(row.lastSeq) : 0
    },
    async markOrigins(orgId, eventIds, depth) {
      if (eventIds.length === 0) return
      await db
        .insertInto('ruleEventOrigins')
        .values(eventIds.map((eventId) => ({ orgId, eventId, depth })))
        .execute()
    },
    async depthOf(orgId, eventId) {
      const row = await db
        .selectFrom('ruleEventOrigins')
        .select('depth')
        .where('orgId', '=', orgId)
        .where('eventId', '=', eventId)
        .executeTakeFirst()
      return row ? int(row.depth) : 0
    },
    async dueWatchers(limit) {
      const on = dialect === 'postgres' ? sql`"trigger"->>'on'` : sql`json_extract("trigger", '$.on')`
      const rows = await db
        .selectFrom('automationRules')
        .select(['orgId', 'teamId', (eb) => eb.fn.min('createdAt').as('since')])
        .where('enabled', '=', 1)
        .where(sql<boolean>`${on} = 'dueDatePassed'`)
        .groupBy(['orgId', 'teamId'])
        .orderBy('orgId')
        .orderBy('teamId')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        orgId: r.orgId as OrgId,
        teamId: r.teamId as TeamId,
        since: iso(r.since as string),
      }))
    },
    async passedDue(orgId, teamId, { from, before, limit }) {
      const rows = await db
        .selectFrom('tasks')
        .innerJoin('workflowStates as s', (j) =>
          j.onRef('s.orgId', '=', 'tasks.orgId').onRef('s.id', '=', 'tasks.stateId'),
        )
        .select(['tasks.id', 'tasks.dueDate'])
        .where('tasks.orgId', '=', orgId)
        .where('tasks.teamId', '=', teamId)
        .where('tasks.dueDate', '>=', from)
        .where('tasks.dueDate', '<', before)
        .where('tasks.archivedAt', 'is', null)
        .where('tasks.deletedAt', 'is', null)
        .where('s.category', 'not in', ['completed', 'canceled'])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('ruleDueMarks as m')
                .select('m.taskId')
                .whereRef('m.orgId', '=', 'tasks.orgId')
                .whereRef('m.taskId', '=', 'tasks.id')
                .whereRef('m.dueDate', '=', 'tasks.dueDate'),
            ),
          ),
        )
        .orderBy('tasks.dueDate')
        .orderBy('tasks.id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ taskId: r.id as TaskId, dueDate: r.dueDate as string }))
    },
    async markDue(orgId, taskId, dueDate) {
      const rows = await db
        .insertInto('ruleDueMarks')
        .values({ orgId, taskId, dueDate })
        .onConflict((c) => c.columns(['orgId', 'taskId', 'dueDate']).doNothing())
        .returning('taskId')
        .execute()
      return rows.length > 0
    },
  }
}
