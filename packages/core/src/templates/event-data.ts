import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Recurrence, Reminder, Template, TemplateApplication, TemplateKindSchema } from './schemas.ts'

/**
 * The `data` of template, recurrence and reminder events, as templates.ts, recurrences/recurrences.ts
 * and reminders/reminders.ts emit it. The scheduler's `recurrence.paused` and `recurrence.occurred` are not typed.
 */
export const TEMPLATE_EVENT_DATA: Record<string, TSchema> = {
  'template.created': recordData('template', Template),
  'template.updated': changedData('template', Template),
  'template.deleted': Type.Object({
    id: IdSchema('TemplateId'),
    kind: TemplateKindSchema,
    name: Type.String(),
  }),
  'template.applied': recordData('application', TemplateApplication),
  ...sameData(['recurrence.created', 'recurrence.resumed'], recordData('recurrence', Recurrence)),
  'recurrence.updated': changedData('recurrence', Recurrence),
  'recurrence.deleted': Type.Object({ id: IdSchema('RecurrenceId'), name: Type.String() }),
  ...sameData(['reminder.created', 'reminder.deleted'], recordData('reminder', Reminder)),
}
