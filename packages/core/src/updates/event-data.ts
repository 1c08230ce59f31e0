import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { changedData, EventChanges, recordData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { UpdateSettings } from '../projects/update-settings.ts'
import { UpdateRequest } from './cadence-schemas.ts'
import { StatusUpdate } from './schemas.ts'

/** The `data` of a subject's `<subject>_update.*` events, as service.ts's `emitUpdate` is called. */
export function updateEventData(subjectType: 'project' | 'program' | 'initiative'): Record<string, TSchema> {
  const record: TObject = recordData('update', StatusUpdate)
  return {
    [`${subjectType}_update.created`]: record,
    [`${subjectType}_update.updated`]: changedData('update', StatusUpdate),
    [`${subjectType}_update.archived`]: record,
    [`${subjectType}_update.restored`]: record,
    [`${subjectType}_update.deleted`]: Type.Object({
      id: IdSchema('UpdateId'),
      subjectType: Type.Literal(subjectType),
      subjectId: Type.String({ description: `The ${subjectType}'s id.` }),
    }),
  }
}

/** The `data` of the updates group's events. */
export const UPDATE_EVENT_DATA: Record<string, TSchema> = {
  ...updateEventData('project'),
  'update_settings.updated': Type.Object({
    settings: UpdateSettings,
    changes: Type.Record(Type.String(), EventChanges, {
      description: 'Per record type whose default changed, its changed fields.',
    }),
  }),
  'update_request.created': Type.Object({
    updateRequest: UpdateRequest,
    name: Type.String({ description: 'The name of the record asked about.' }),
  }),
}
