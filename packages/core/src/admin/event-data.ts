import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Domain, OrgSettings } from './schemas.ts'

/** The `data` of workspace settings and domain events, as settings.ts and domains.ts emit it. */
export const ADMIN_EVENT_DATA: Record<string, TSchema> = {
  'org_settings.updated': changedData('settings', OrgSettings),
  ...sameData(['domain.created', 'domain.verified', 'domain.check_failed'], recordData('domain', Domain)),
  'domain.deleted': Type.Object({
    id: IdSchema('DomainId'),
    domain: Type.String({ description: 'The domain name it had.' }),
    status: Domain.properties.status,
  }),
}
