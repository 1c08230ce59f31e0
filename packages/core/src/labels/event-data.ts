import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Label } from './schemas.ts'

/** The `data` of label events, as service.ts emits it. */
export const LABEL_EVENT_DATA: Record<string, TSchema> = {
  'label.created': recordData('label', Label),
  ...sameData(['label.updated', 'label.archived', 'label.restored'], changedData('label', Label)),
  'label.deleted': Type.Object({
    id: IdSchema('LabelId'),
    name: Type.String(),
    taskCount: Type.Integer({ minimum: 0, description: 'How many tasks carried it.' }),
  }),
}
