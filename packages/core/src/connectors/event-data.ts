import { type TSchema, Type } from '@sinclair/typebox'
import { recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable } from '../kernel/schema-types.ts'
import { Connection, LinkedItem } from './schemas.ts'

/** What connections.ts tells of a connection: who and which provider, never a token. */
const connectionSummary = (withStatus: boolean) =>
  Type.Object({
    id: Connection.properties.id,
    memberId: Connection.properties.memberId,
    providerId: Connection.properties.providerId,
    ...(withStatus ? { status: Connection.properties.status } : {}),
  })

/** The `data` of connector events, as provider-settings.ts, connections.ts, linked-items.ts and record-properties.ts emit it. */
export const CONNECTOR_EVENT_DATA: Record<string, TSchema> = {
  'connector_provider.updated': Type.Object({
    providerId: Type.String({ description: 'The provider enabled or disabled.' }),
    enabled: Type.Boolean(),
  }),
  ...sameData(
    ['connection.created', 'connection.connected', 'connection.checked'],
    recordData('connection', connectionSummary(true)),
  ),
  'connection.deleted': Type.Object({
    connection: connectionSummary(false),
    revokedAtProvider: Type.Boolean({ description: 'Whether the provider confirmed the token revoked.' }),
  }),
  ...sameData(
    ['linked_item.created', 'linked_item.refreshed', 'linked_item.deleted'],
    recordData('linkedItem', LinkedItem),
  ),
  ...sameData(
    ['record_property.updated', 'record_property.deleted'],
    Type.Object({
      recordType: Type.String({ description: 'The kind of record the property is on.' }),
      recordId: Type.String(),
      key: Type.String(),
      clientId: Nullable(Type.String(), 'The client that owns the property; null for none.'),
    }),
  ),
}
