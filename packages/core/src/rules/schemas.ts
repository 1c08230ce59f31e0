import { type Static, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { PRIORITIES } from '../tasks/schemas.ts'
import { StateCategorySchema } from '../teams/schemas.ts'
import { ViewFilter } from '../views/schemas.ts'

/** What a rule waits for: a change to a task of its team, read from the workspace's event log. */
export const RULE_TRIGGERS = [
  'taskCreated',
  'stateEntered',
  'labelAdded',
  'assigneeChanged',
  'dueDatePassed',
  'linkedItemStateChanged',
] as const
export type RuleTrigger = (typeof RULE_TRIGGERS)[number]

/** What a rule does to the task; each act is the operation a person would call, as the rule's author. */
export const RULE_ACTIONS = [
  'setState',
  'setAssignee',
  'setPriority',
  'setProject',
  'setCycle',
  'addLabel',
  'comment',
  'notify',
] as const
export type RuleActionType = (typeof RULE_ACTIONS)[number]

/** How the task that changed state is linked to the task a `linkedItemStateChanged` rule acts on. */
export const LINK_RELATIONS = ['blockedBy', 'blocks', 'parent', 'child'] as const
export type LinkRelation = (typeof LINK_RELATIONS)[number]

/** Who a `notify` act reaches besides named members. */
export const NOTIFY_ROLES = ['assignee', 'subscribers'] as const

/** One kind of trigger: `on` names it, and only the kinds that narrow it carry a narrowing field. */
const trigger = <O extends RuleTrigger, P extends TProperties>(on: O, description: string, properties: P) =>
  Type.Object(
    { on: Type.Literal(on, { description }), ...properties },
    { additionalProperties: false, title: on },
  )

export const RuleTriggerSchema = Type.Union(
  [
    trigger('taskCreated', 'A task of the team is created.', {}),
    trigger('stateEntered', 'A task of the team moves to another state.', {
      stateId: Type.Optional(
        Nullable(IdSchema('StateId'), 'Only this state of the team; null or absent: any.'),
      ),
    }),
    trigger('labelAdded', 'A label is added to a task of the team.', {
      labelId: Type.Optional(Nullable(IdSchema('LabelId'), 'Only this label; null or absent: any label.')),
    }),
    trigger('assigneeChanged', 'The assignee of a task of the team changes (unassigning included).', {}),
    trigger(
      'dueDatePassed',
      'The due date of an open task of the team passes (at the end of that day, UTC): once per task and due date.',
      {},
    ),
    trigger('linkedItemStateChanged', 'A task linked to a task of the team moves to another state.', {
      relation: Type.Optional(
        Nullable(
          StringEnum(LINK_RELATIONS),
          'How the task that moved is linked to the rule’s task: `blockedBy` (it blocks the rule’s task), `blocks` (the rule’s task blocks it), `parent` (it is the parent), `child` (a subtask); null or absent: any.',
        ),
      ),
      category: Type.Optional(
        Nullable(
          StateCategorySchema,
          'Only when the task that moved enters a state of this category; null or absent: any.',
        ),
      ),
    }),
  ],
  { $id: 'AutomationRuleTrigger', description: 'The change that runs the rule, by `on`.' },
)
export type RuleTriggerSpec = Static<typeof RuleTriggerSchema>

/** One kind of act: `type` names it and `value` is what that act takes. */
const action = <T extends RuleActionType, V extends TSchema>(type: T, value: V) =>
  Type.Object({ type: Type.Literal(type), value }, { additionalProperties: false, title: type })

export const RuleActionSchema = Type.Union(
  [
    action('setState', IdSchema('StateId', 'A state of the rule’s team.')),
    action('setAssignee', Nullable(IdSchema('MemberId'), 'The new assignee; null unassigns.')),
    action('setPriority', StringEnum(PRIORITIES, { description: 'The new priority.' })),
    action(
      'setProject',
      Nullable(IdSchema('ProjectId'), 'The new project; null takes the task out of its project.'),
    ),
    action(
      'setCycle',
      Nullable(IdSchema('CycleId'), 'A cycle of the team; null takes the task out of its cycle.'),
    ),
    action('addLabel', IdSchema('LabelId', 'A label the task gets.')),
    action(
      'comment',
      Type.String({
        minLength: 1,
        maxLength: 10_000,
        description: 'The Markdown body of a comment posted on the task.',
      }),
    ),
    action(
      'notify',
      Type.Object(
        {
          to: Type.Array(
            Type.Union([
              StringEnum(NOTIFY_ROLES, { description: 'The task’s assignee, or its subscribers.' }),
              IdSchema('MemberId', 'A member of the workspace.'),
            ]),
            {
              minItems: 1,
              maxItems: 20,
              uniqueItems: true,
              description:
                'Who is notified: `assignee`, `subscribers` and members by id. Only those who can view the task are; the notification is of kind `ruleNotified`.',
            },
          ),
          message: Type.String({
            minLength: 1,
            maxLength: 200,
            description: 'What the notification says, before the task’s key and title.',
          }),
        },
        { additionalProperties: false, description: 'Whom to notify, and what to tell them.' },
      ),
    ),
  ],
  { $id: 'AutomationRuleAction', description: 'One act of the rule, by `type`.' },
)
export type RuleAction = Static<typeof RuleActionSchema>

export const AutomationRule = Type.Object(
  {
    id: IdSchema('AutomationRuleId'),
    orgId: IdSchema('OrgId'),
    teamId: IdSchema('TeamId', 'The team whose tasks the rule watches.'),
    name: Name('The rule name.', 80),
    enabled: Type.Boolean({ description: 'A disabled rule keeps its definition and runs on nothing.' }),
    trigger: RuleTriggerSchema,
    conditions: {
      ...ViewFilter,
      description:
        'The body of `tasks.query` (`tasks.list` query parameters and a composed `filter`), as a saved view of tasks stores it (without `cursor` and `limit`): the rule acts only when the task is in that list, read as the author. `{}`: every task.',
    } as typeof ViewFilter,
    actions: Type.Array(RuleActionSchema, {
      minItems: 1,
      maxItems: 10,
      description: 'Done in order, all or nothing: a failing act undoes the others of the run.',
    }),
    authorId: IdSchema('MemberId', 'Whose rights the rule acts with: whoever created or last changed it.'),
    createdAt: Timestamp('When the rule was created.'),
    updatedAt: Timestamp('When the rule last changed.'),
  },
  {
    $id: 'AutomationRule',
    additionalProperties: false,
    description:
      "A team's automation rule: when a task of the team changes as `trigger` says and is in the `conditions` list, do `actions`.",
  },
)
export type AutomationRule = Static<typeof AutomationRule>

export const RUN_OUTCOMES = ['succeeded', 'failed', 'loopStopped'] as const
export type RunOutcome = (typeof RUN_OUTCOMES)[number]

export const AutomationRun = Type.Object(
  {
    id: IdSchema('AutomationRunId'),
    ruleId: IdSchema('AutomationRuleId'),
    taskId: IdSchema(
      'TaskId',
      'The task the rule ran on: the one the event was about or, for `linkedItemStateChanged`, a task linked to it.',
    ),
    eventId: IdSchema('EventId', 'The event that triggered the run.'),
    outcome: StringEnum(RUN_OUTCOMES, {
      description:
        '`succeeded`: every action done; `failed`: nothing done (`error` says why, e.g. the author lost a right); `loopStopped`: not run, the event came from a chain of rule runs as long as the bound.',
    }),
    error: Nullable(Type.String(), 'Why the run failed; null otherwise.'),
    depth: Type.Integer({
      minimum: 1,
      description:
        'The run’s place in a chain of rules: 1 for a change a person or agent made, n + 1 for a change a run of depth n made.',
    }),
    createdAt: Timestamp('When the run happened.'),
  },
  { $id: 'AutomationRun', additionalProperties: false, description: 'One run of a rule on one event.' },
)
export type AutomationRun = Static<typeof AutomationRun>

export const CreateRuleBody = Type.Object(
  {
    ...fieldsOf(AutomationRule, { name: true, trigger: true, actions: true }),
    ...optionalFieldsOf(AutomationRule, {
      enabled: { default: true, description: 'Default true.' },
      conditions: { default: {}, description: 'Default `{}`: every task of the team.' },
    }),
  },
  { $id: 'AutomationRuleCreate', additionalProperties: false },
)

export const UpdateRuleBody = Type.Object(
  {
    ...optionalFieldsOf(AutomationRule, {
      name: true,
      enabled: true,
      trigger: true,
      conditions: true,
      actions: true,
    }),
  },
  { $id: 'AutomationRuleUpdate', additionalProperties: false, minProperties: 1 },
)
