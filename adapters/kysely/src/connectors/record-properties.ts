import type { MemberId } from '@workgraph/core'
import type { ConnectorSettingsRepo, RecordPropertyRepo, RecordRef } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function connectorSettingsRepo(db: Kysely<Database>): ConnectorSettingsRepo {
  return {
    async disabled(orgId) {
      const rows = await db
        .selectFrom('disabledConnectorProviders')
        .select('providerId')
        .where('orgId', '=', orgId)
        .execute()
      return rows.map((r) => r.providerId)
    },
    async setEnabled(orgId, providerId, enabled, by, at) {
      if (enabled) {
        const result = await db
          .deleteFrom('disabledConnectorProviders')
          .where('orgId', '=', orgId)
          .where('providerId', '=', providerId)
          .executeTakeFirst()
        return Number(result.numDeletedRows) > 0
      }
      const already = await db
        .selectFrom('disabledConnectorProviders')
        .select('providerId')
        .where('orgId', '=', orgId)
        .where('providerId', '=', providerId)
        .executeTakeFirst()
      if (already) return false
      await db
        .insertInto('disabledConnectorProviders')
        .values({ orgId, providerId, disabledBy: by, disabledAt: at })
        .onConflict((oc) => oc.columns(['orgId', 'providerId']).doNothing())
        .execute()
      return true
    },
  }
}

type Row = { [K in keyof Database['recordProperties']]: unknown }

function toProperty(r: Row) {
  return {
    recordType: r.recordType as RecordRef['type'],
    recordId: r.recordId as string,
    key: r.key as string,
    clientId: r.clientKey === '' ? null : (r.clientKey as string),
    value: JSON.parse(r.value as string) as unknown,
    updatedBy: r.updatedBy as MemberId,
    updatedAt: iso(r.updatedAt as string),
  }
}

export function recordPropertyRepo(db: Kysely<Database>): RecordPropertyRepo {
  const ofClient = (orgId: string, record: RecordRef, clientKey: string) =>
    db
      .selectFrom('recordProperties')
      .selectAll()
      .where('orgId', '=', orgId)
      .where('recordType', '=', record.type)
      .where('recordId', '=', record.id)
      .where('clientKey', '=', clientKey)
  return {
    async get(orgId, record, clientKey, key) {
      const row = await ofClient(orgId, record, clientKey).where('key', '=', key).executeTakeFirst()
      return row ? toProperty(row) : null
    },
    async list(orgId, record, clientKey, page) {
      const rows = await keysetPage(ofClient(orgId, record, clientKey), page, {
        sort: 'key',
        id: 'key',
      }).execute()
      return rows.map(toProperty)
    },
    async put(orgId, record, clientKey, p) {
      const value = JSON.stringify(p.value)
      await db
        .insertInto('recordProperties')
        .values({
          orgId,
          recordType: record.type,
          recordId: record.id,
          clientKey,
          key: p.key,
          value,
          updatedBy: p.updatedBy,
          updatedAt: p.updatedAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['orgId', 'recordType', 'recordId', 'clientKey', 'key'])
            .doUpdateSet({ value, updatedBy: p.updatedBy, updatedAt: p.updatedAt }),
        )
        .execute()
    },
    async delete(orgId, record, clientKey, key) {
      const result = await db
        .deleteFrom('recordProperties')
        .where('orgId', '=', orgId)
        .where('recordType', '=', record.type)
        .where('recordId', '=', record.id)
        .where('clientKey', '=', clientKey)
        .where('key', '=', key)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}
