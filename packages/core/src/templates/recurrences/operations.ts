import { type TProperties, Type } from '@sinclair/typebox'
import { IdSchema, type RecurrenceId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf, resourceOperations, subListOperation } from '../../kernel/resource.ts'
import { Name } from '../../kernel/schema-types.ts'
import { occurrencesExample, pauseExample, recurrenceExamples, resumeExample } from '../examples.ts'
import { Occurrence, Recurrence, Schedule } from '../schemas.ts'
import {
  createRecurrence,
  deleteRecurrence,
  listOccurrences,
  listRecurrences,
  requireRecurrence,
  setRecurrencePaused,
  updateRecurrence,
} from './recurrences.ts'

const RECURRING = 'Recurring work'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const rid = (p: Record<string, string>) => p.recurrenceId as RecurrenceId
const IsoDate = (description: string) => Type.String({ format: 'date', description })

const recurrencesPath = '/v1/orgs/{orgId}/recurrences'
const recurrencePath = `${recurrencesPath}/{recurrenceId}`
const scheduleNote =
  'Occurrences are UTC dates: `daily` every `interval` days from `startDate`; `weekly` on `weekdays` every ' +
  '`interval` weeks (weeks start on Monday); `monthly` on `monthDay` (a short month’s last day past its end) ' +
  'every `interval` months. Fields of another frequency, a task template missing, or a start date past ' +
  'the calendar are 422 `rule_violated`.'
const recurrences = resourceOperations({
  name: 'recurrence',
  plural: 'recurrences',
  tag: RECURRING,
  schema: Recurrence,
  collectionPath: recurrencesPath,
  idParam: 'recurrenceId',
  idBrand: 'RecurrenceId',
  target: (p) => ({ type: 'recurrence', id: p.recurrenceId! }),
  createTarget: (_p, body) => ({ type: 'team', id: body.teamId as string, pointer: '/body/teamId' }),
  requires: { create: '`contribute` on the team named by `teamId`' },
  capabilities: { create: 'contribute', update: 'contribute', delete: 'contribute' },
  createBody: Type.Object(
    {
      teamId: IdSchema('TeamId'),
      templateId: IdSchema('TemplateId'),
      name: Name('What the recurring work is called.'),
      schedule: Schedule,
      startDate: Type.Optional(IsoDate('The first day an occurrence may fall on; default today (UTC).')),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      name: Type.Optional(Name('What the recurring work is called.')),
      schedule: Type.Optional(Schedule),
      startDate: Type.Optional(IsoDate('The first day an occurrence may fall on.')),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    teamId: Type.Optional(IdSchema('TeamId')),
    templateId: Type.Optional(IdSchema('TemplateId')),
    paused: Type.Optional(Type.Boolean({ description: 'Only paused (true) or only active (false) ones.' })),
  },
  errors: {
    create: ['archived', 'not_found', 'reference_not_found', 'rule_violated'],
    update: ['rule_violated'],
  },
  descriptions: {
    list: 'Recurring work of the teams the caller can view, newest first.',
    get: 'With its next occurrence (null while paused).',
    create:
      `Schedules a task template (of any team the caller can view) into \`teamId\`. ${scheduleNote} On each ` +
      'occurrence the server’s scheduler creates the task once, as the creator, due `dueOffsetDays` after the ' +
      'occurrence when the template says so. The first occurrence is on or after today: none are back-filled.',
    update: `A new schedule or start date moves the next occurrence; occurrences already created stay. ${scheduleNote}`,
    delete: 'Stops it for good and forgets its occurrences; the tasks it created stay.',
  },
  examples: recurrenceExamples,
  handlers: {
    list: (ctx, _p, query) => listRecurrences(ctx, query),
    get: (ctx, p) => requireRecurrence(ctx, rid(p)),
    create: (ctx, _p, body) => createRecurrence(ctx, body as never),
    update: (ctx, p, body) => updateRecurrence(ctx, rid(p), body as never),
    delete: (ctx, p) => deleteRecurrence(ctx, rid(p)),
  },
})

const recurrenceActions: AnyOperation[] = [
  ...(['pause', 'resume'] as const).map((action) =>
    declareOperation({
      id: `recurrences.${action}`,
      method: 'POST',
      path: `${recurrencePath}/${action}`,
      tag: RECURRING,
      scope: 'work:write',
      summary: action === 'pause' ? 'Pause recurring work' : 'Resume recurring work',
      description:
        action === 'pause'
          ? 'No tasks are created while paused. Pausing a paused one changes nothing.'
          : 'The next occurrence is the first on or after today: the ones that fell while paused are not created.',
      params: obj(paramsOf(recurrencePath)),
      response: Recurrence,
      status: 200,
      capability: 'contribute',
      target: ({ params }) => ({ type: 'recurrence', id: params.recurrenceId }),
      errors: ['not_found'],
      examples: action === 'pause' ? pauseExample : resumeExample,
      run: (ctx, { params }) => setRecurrencePaused(ctx, rid(params), action === 'pause'),
    }),
  ),
  subListOperation({
    id: 'recurrences.occurrences.list',
    path: `${recurrencePath}/occurrences`,
    tag: RECURRING,
    summary: 'List the occurrences of recurring work',
    description:
      'Each date the scheduler acted on, newest first, with the task it created (once per date). `taskId` is null ' +
      'when the task could not be created (the recurrence then paused) or was deleted since.',
    item: Occurrence,
    itemName: 'Occurrence',
    examples: occurrencesExample,
    run: (ctx, params, query) => listOccurrences(ctx, rid(params), query),
  }),
]

/** Recurring work: the recurrences and their occurrences (docs/templates.md). */
export const recurrenceOperations: AnyOperation[] = [...recurrences, ...recurrenceActions]
