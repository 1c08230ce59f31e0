import { Type } from '@sinclair/typebox'
import { PLAN_MAX_STEPS, PlanStep } from '@workgraph/core'
import { brieflyAll, object, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

/** The plan step as the REST reference describes it, told briefly: the tool's description says the rest. */
const Step = brieflyAll(PlanStep, {
  action: '',
  handle: '',
  task: '',
  team: '',
  state: '',
  assignee: '',
  title: 'Task title, or an `add_link` title.',
  description: '',
  estimate: '',
  dueDate: '',
  parent: '',
  cycle: '',
  label: '',
  link: '',
  other: '',
  body: '',
  startsAt: '',
  endsAt: '',
  name: 'Team, state, label, cycle, project or milestone name; for `update_label`, the new name.',
  key: 'Task key prefix of a team (`ENG`).',
  category: '',
  color: 'Hex, `#5e6ad2`.',
  person: '',
  url: '',
  emoji: 'An emoji, or a `:shortcode:`.',
  comment: 'A comment id.',
  project: '',
  milestone: '',
  health: '',
  targetDate: '',
})

/** Whole plans in one call: the catalogue's `plans.apply`, with its own step schema. */
export const organizeTool: ToolDefinition = {
  name: 'organize',
  title: 'Apply a plan',
  description: [
    `Applies up to ${PLAN_MAX_STEPS} \`steps\` in one transaction, all or nothing. A step creating something may set`,
    '`handle: "h"`; later steps name it `"$h"`. Try `dryRun: true` first. Fields by action: link_tasks `link`, `other`;',
    'set_parent `parent`; comment `body`; create_cycle `startsAt`, `endsAt`; update_label `label`; subscribe `person`;',
    'add_link `url`, `title`; react `emoji` on `task` or `comment`; create_milestone `project`, `targetDate`;',
    'add_to_project `project`, `milestone`; post_update `project`, `health`, `body`.',
  ].join(' '),
  readOnly: false,
  destructive: true,
  idempotent: false,
  operations: ['plans.apply'],
  input: object(
    {
      workspace: Workspace,
      steps: Type.Array(Step, { minItems: 1, maxItems: PLAN_MAX_STEPS }),
      dryRun: Type.Optional(
        Type.Boolean({ default: false, description: 'Report what would change; change nothing.' }),
      ),
    },
    ['steps'],
  ),
  async run(call, args) {
    const org = await call.workspace(args.workspace)
    return call.run('plans.apply', {
      params: { orgId: org.id },
      body: { steps: args.steps, ...(args.dryRun !== undefined ? { dryRun: args.dryRun } : {}) },
    })
  },
}
