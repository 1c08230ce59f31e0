import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { PREFERENCE_LEVELS, ViewDisplayOverrides } from './preference-schemas.ts'
import { View } from './schemas.ts'

const ViewIdField = IdSchema('ViewId')
const preferencesOf = {
  id: ViewIdField,
  level: StringEnum(PREFERENCE_LEVELS),
  memberId: Nullable(IdSchema('MemberId'), 'Whose overrides; null for the view default.'),
}

/** The `data` of shared view and view preference events, as service.ts and preferences.ts emit it. */
export const VIEW_EVENT_DATA: Record<string, TSchema> = {
  'view.created': Type.Object({ id: ViewIdField, view: View }),
  'view.updated': Type.Object({ id: ViewIdField, view: View, changes: EventChanges }),
  'view.unshared': Type.Object({ id: ViewIdField }),
  'view.deleted': Type.Object({ id: ViewIdField, name: Type.String() }),
  'view_preferences.updated': Type.Object({ ...preferencesOf, preferences: ViewDisplayOverrides }),
  'view_preferences.deleted': Type.Object(preferencesOf),
}
