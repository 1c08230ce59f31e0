import type { InitiativeMetricRecord, InitiativeMetricValue } from '@workgraph/core'
import type { InitiativeMetricRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'

type MetricRow = { [K in keyof Database['initiativeMetrics']]: unknown }
type ValueRow = { [K in keyof Database['initiativeMetricValues']]: unknown }

const toMetric = (r: MetricRow): InitiativeMetricRecord => ({
  initiativeId: r.initiativeId as InitiativeMetricRecord['initiativeId'],
  unit: r.unit as InitiativeMetricRecord['unit'],
  currencyCode: r.currencyCode as string | null,
  precision: Number(r.precision),
  initial: Number(r.initial),
  target: Number(r.target),
  current: Number(r.current),
  progressSource: r.progressSource as InitiativeMetricRecord['progressSource'],
  updatedAt: iso(r.updatedAt as string),
})

const toValue = (r: ValueRow): InitiativeMetricValue => ({
  id: r.id as InitiativeMetricValue['id'],
  initiativeId: r.initiativeId as InitiativeMetricValue['initiativeId'],
  value: Number(r.value),
  note: r.note as string | null,
  authorId: r.authorId as string,
  createdAt: iso(r.createdAt as string),
})

export function initiativeMetricRepo(db: Kysely<Database>): InitiativeMetricRepo {
  return {
    async get(orgId, id) {
      const r = await db
        .selectFrom('initiativeMetrics')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .executeTakeFirst()
      return r ? toMetric(r) : null
    },
    async put(orgId, metric) {
      const { initiativeId: _id, ...fields } = metric
      await db
        .insertInto('initiativeMetrics')
        .values({ orgId, ...metric })
        .onConflict((oc) => oc.columns(['orgId', 'initiativeId']).doUpdateSet(fields))
        .execute()
    },
    async delete(orgId, id) {
      // Its recorded values go with it.
      await db
        .deleteFrom('initiativeMetricValues')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .execute()
      const r = await db
        .deleteFrom('initiativeMetrics')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
        .executeTakeFirst()
      return Number(r.numDeletedRows) > 0
    },
    async insertValue(orgId, value) {
      await db
        .insertInto('initiativeMetricValues')
        .values({ orgId, ...value })
        .execute()
    },
    async values(orgId, id, page) {
      const q = db
        .selectFrom('initiativeMetricValues')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toValue)
    },
  }
}
