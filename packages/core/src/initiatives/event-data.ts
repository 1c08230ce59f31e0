import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable } from '../kernel/schema-types.ts'
import { followerEventData } from '../projects/event-data.ts'
import { updateEventData } from '../updates/event-data.ts'
import { InitiativeMetric, InitiativeMetricValue } from './metric/schemas.ts'
import { Initiative } from './schemas.ts'

/** A metric as stored, before its `progress` is worked out: `previous` and a deleted metric. */
const StoredMetric = Type.Omit(InitiativeMetric, ['progress'], {
  $id: 'EventInitiativeMetricDefinition',
  additionalProperties: false,
  description: "An initiative's metric definition as it was, without the computed progress.",
})

const InitiativeIdField = IdSchema('InitiativeId')

/** The `data` of initiative events, as service.ts, labels/labels.ts, links/links.ts, project-order.ts and metric/metric.ts emit it. */
export const INITIATIVE_EVENT_DATA: Record<string, TSchema> = {
  'initiative.created': recordData('initiative', Initiative),
  'initiative.updated': changedData('initiative', Initiative),
  ...sameData(['initiative.archived', 'initiative.restored'], recordData('initiative', Initiative)),
  'initiative.deleted': Type.Object({
    id: InitiativeIdField,
    name: Type.String(),
    parentId: Nullable(
      IdSchema('InitiativeId'),
      'Its parent, where its sub-initiatives moved; null at the top.',
    ),
    movedChildIds: Type.Array(InitiativeIdField, { description: 'The sub-initiatives that moved up.' }),
  }),
  ...sameData(
    ['initiative.project_added', 'initiative.project_removed'],
    Type.Object({ initiativeId: InitiativeIdField, projectId: IdSchema('ProjectId') }),
  ),
  'initiative.project_updated': Type.Object({
    initiativeId: InitiativeIdField,
    projectId: IdSchema('ProjectId'),
    index: Type.Object(
      { before: Type.Integer(), after: Type.Integer() },
      { description: "The project's position among the initiative's projects, before and after." },
    ),
  }),
  ...sameData(
    ['initiative.member_added', 'initiative.member_removed'],
    Type.Object({ initiativeId: InitiativeIdField, memberId: IdSchema('MemberId') }),
  ),
  ...updateEventData('initiative'),
  'initiative_metric.updated': Type.Object({
    metric: InitiativeMetric,
    previous: Type.Union([StoredMetric, Type.Null()], {
      description: 'The definition replaced; null for a new metric.',
    }),
  }),
  'initiative_metric.deleted': recordData('metric', StoredMetric),
  'initiative_metric_value.created': Type.Object({ value: InitiativeMetricValue, metric: InitiativeMetric }),
  ...sameData(
    ['initiative_subscriber.created', 'initiative_subscriber.deleted'],
    followerEventData('initiative'),
  ),
}
