import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, recordData, sameData } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Team, WorkflowState } from './schemas.ts'
import { TeamSettings, TriageSettings } from './settings-schemas.ts'

/** The `data` of the teams group's events, as service.ts and settings.ts emit it. */
export const TEAM_EVENT_DATA: Record<string, TSchema> = {
  'team.created': recordData('team', Team),
  ...sameData(['team.updated', 'team.archived', 'team.restored'], changedData('team', Team)),
  'workflow_state.created': recordData('state', WorkflowState),
  'workflow_state.updated': changedData('state', WorkflowState),
  'workflow_state.archived': recordData('state', WorkflowState),
  'workflow_state.moved': Type.Object({
    state: WorkflowState,
    order: Type.Array(IdSchema('StateId'), { description: "The team's active states in their new order." }),
  }),
  'team_settings.updated': changedData('settings', TeamSettings),
  'triage_settings.updated': changedData('settings', TriageSettings),
}
