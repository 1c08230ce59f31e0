import { Type } from '@sinclair/typebox'
import { PLAN_ACTIONS, PLAN_MAX_STEPS, PlanStep } from '@workgraph/core'
import { object, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

/** Whole plans in one call: the catalogue's `plans.apply`, with its own step schema. */
export const organizeTool: ToolDefinition = {
  name: 'organize',
  title: 'Apply a plan',
  description: [
    `Applies a whole plan of up to ${PLAN_MAX_STEPS} steps in one transaction: all or nothing.`,
    `Actions: ${PLAN_ACTIONS.join(', ')}.`,
    'Name things as people do: tasks by key (`ENG-42`), teams by key or name, states and labels by name, cycles by number, name, `current` or `next`, people by email, name or `me`.',
    'link_tasks/unlink_tasks take `link` (blocks, blocked_by, related, duplicate_of) and `other`; set_parent takes `parent` (null: top-level); comment takes `body`; create_cycle takes `team`, `startsAt`, `endsAt`.',
    'update_label/archive_label take `label` (and `team` to pick among same-named team labels; update_label: `name`, `color`, `description`); subscribe takes `task` and `person` (default you); add_link takes `task`, `url`, `title`; react takes `emoji` and a `task` or a `comment` id; resolve_comment takes `comment`.',
    'create_project takes `name` and `team` (`description`, `priority`); create_milestone takes `project`, `name` (`description`, `targetDate`); add_to_project takes `task`, `project` and optionally `milestone` (a milestone of that project); post_update takes `project`, `health` (onTrack, atRisk, offTrack) and `body`. Projects and milestones are named by name.',
    'A step that creates something (task, team, state, label, cycle, project, milestone) may set `handle: "login"`; later steps refer to it as `"$login"`.',
    'Every name is resolved and checked before anything changes; the answer lists each step with the id and key it changed or created.',
    'Use `dryRun: true` first to see the exact report without changing anything.',
  ].join(' '),
  readOnly: false,
  destructive: true,
  idempotent: false,
  operations: ['plans.apply'],
  input: object(
    {
      workspace: Workspace,
      steps: Type.Array(PlanStep, { minItems: 1, maxItems: PLAN_MAX_STEPS }),
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
