import type { MemberId, StateId, TeamId, TeamSettingsRecord } from '@workgraph/core'
import type { TeamSettingsRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { iso, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

type SettingsRow = { [K in keyof Database['teamSettings']]: unknown }

export function toSettings(r: SettingsRow): TeamSettingsRecord {
  return {
    teamId: r.teamId as TeamId,
    estimateScale: r.estimateScale as TeamSettingsRecord['estimateScale'],
    autoCloseDays: r.autoCloseDays === null ? null : Number(r.autoCloseDays),
    autoArchiveDays: r.autoArchiveDays === null ? null : Number(r.autoArchiveDays),
    triageEnabled: Number(r.triageEnabled) === 1,
    defaultStateId: r.defaultStateId as StateId | null,
    responsibility: r.triageResponsibility as TeamSettingsRecord['responsibility'],
    action: r.triageAction as TeamSettingsRecord['action'],
    memberIds: json(r.triageMemberIds) as MemberId[],
    updatedAt: iso(r.updatedAt as Date | string),
  }
}

export function teamSettingsRepo(db: Kysely<Database>): TeamSettingsRepo {
  return {
    async get(orgId, teamId) {
      const r = await db
        .selectFrom('teamSettings')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('teamId', '=', teamId)
        .executeTakeFirst()
      return r ? toSettings(r) : null
    },
    async put(orgId, s) {
      const values = {
        estimateScale: s.estimateScale,
        autoCloseDays: s.autoCloseDays,
        autoArchiveDays: s.autoArchiveDays,
        triageEnabled: s.triageEnabled ? 1 : 0,
        defaultStateId: s.defaultStateId,
        triageResponsibility: s.responsibility,
        triageAction: s.action,
        triageMemberIds: JSON.stringify(s.memberIds),
        updatedAt: s.updatedAt,
      }
      await db
        .insertInto('teamSettings')
        .values({ orgId, teamId: s.teamId, ...values })
        .onConflict((oc) => oc.columns(['orgId', 'teamId']).doUpdateSet(values))
        .execute()
    },
  }
}
