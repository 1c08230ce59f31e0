import { Type } from '@sinclair/typebox'
import type { TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { getTeamSettings, getTriageSettings, updateTeamSettings, updateTriageSettings } from './settings.ts'
import { teamSettingsExamples, triageSettingsExamples } from './settings-examples.ts'
import {
  ESTIMATE_SCALES,
  TeamSettings,
  TRIAGE_ACTIONS,
  TRIAGE_RESPONSIBILITIES,
  TriageSettings,
} from './settings-schemas.ts'

const settingsPath = '/v1/orgs/{orgId}/teams/{teamId}/settings'
const triagePath = '/v1/orgs/{orgId}/teams/{teamId}/triage-settings'
const params = Type.Object(paramsOf(settingsPath), { additionalProperties: false })
const Days = Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 365 })))

export const teamSettingsOperations: AnyOperation[] = [
  declareOperation({
    id: 'teams.settings.get',
    method: 'GET',
    path: settingsPath,
    tag: 'Teams',
    scope: 'work:read',
    summary: "A team's settings",
    description: 'Estimate scale, auto-close and auto-archive periods, triage on/off and the default state.',
    params,
    response: TeamSettings,
    status: 200,
    etag: true,
    errors: ['not_found'],
    examples: teamSettingsExamples.get,
    run: (ctx, { params }) => getTeamSettings(ctx, params.teamId as TeamId),
  }),
  declareOperation({
    id: 'teams.settings.update',
    method: 'PATCH',
    path: settingsPath,
    tag: 'Teams',
    scope: 'work:write',
    summary: "Change a team's settings",
    description:
      'Needs `manage` on the team. The estimate scale is checked by `tasks.create` and `tasks.update` from then on (existing estimates stay). ' +
      'Turning triage on adds a `Triage` state when the team has no active one. `defaultStateId` is an active, non-triage state of the team.',
    params,
    body: Type.Object(
      {
        estimateScale: Type.Optional(StringEnum(ESTIMATE_SCALES)),
        autoCloseDays: Days,
        autoArchiveDays: Days,
        triageEnabled: Type.Optional(Type.Boolean()),
        defaultStateId: Type.Optional(Nullable(IdSchema('StateId'))),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: TeamSettings,
    status: 200,
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    precondition: 'teams.settings.get',
    errors: ['not_found', 'precondition_failed', 'reference_not_found'],
    examples: teamSettingsExamples.update,
    run: (ctx, { params, body }) => updateTeamSettings(ctx, params.teamId as TeamId, body as never),
  }),
]

/** Listed with the triage operations (the `Triage` tag), stored with the team's settings. */
export const triageSettingsOperations: AnyOperation[] = [
  declareOperation({
    id: 'triageSettings.get',
    method: 'GET',
    path: triagePath,
    tag: 'Triage',
    scope: 'work:read',
    summary: 'Who handles a team’s triage',
    description:
      "Who handles the team's triage and how: `responsibility` (`none` or `fixed`), `action` (`notify` or `assign`) and the handlers in `memberIds`. A team that never set them answers the defaults with `updatedAt` null; any member who can view the team reads them.",
    params,
    response: TriageSettings,
    status: 200,
    etag: true,
    errors: ['not_found'],
    examples: triageSettingsExamples.get,
    run: (ctx, { params }) => getTriageSettings(ctx, params.teamId as TeamId),
  }),
  declareOperation({
    id: 'triageSettings.update',
    method: 'PATCH',
    path: triagePath,
    tag: 'Triage',
    scope: 'work:write',
    summary: 'Change who handles a team’s triage',
    description:
      'Needs `manage` on the team. `fixed` names 1 to 10 active members; `none` names nobody (setting `none` clears `memberIds`). With `none` nobody is named, with `fixed` at least one member is (else 422 `rule_violated`).',
    params,
    body: Type.Object(
      {
        responsibility: Type.Optional(StringEnum(TRIAGE_RESPONSIBILITIES)),
        action: Type.Optional(StringEnum(TRIAGE_ACTIONS)),
        memberIds: Type.Optional(Type.Array(IdSchema('MemberId'), { maxItems: 10, uniqueItems: true })),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: TriageSettings,
    status: 200,
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    precondition: 'triageSettings.get',
    errors: ['not_found', 'precondition_failed', 'reference_not_found', 'rule_violated'],
    examples: triageSettingsExamples.update,
    run: (ctx, { params, body }) => updateTriageSettings(ctx, params.teamId as TeamId, body as never),
  }),
]
