import type { PlanAction, PlanStep } from './schemas.ts'

/** What a name or a `$handle` stands for once resolved. */
export type RecordType = 'task' | 'team' | 'state' | 'label' | 'cycle' | 'project' | 'milestone'
export interface Ref {
  type: RecordType | 'person'
  id: string
  teamId: string | null
}

export const TASK_FIELDS = ['title', 'description', 'priority', 'estimate', 'dueDate'] as const
export const LABEL_FIELDS = ['name', 'color', 'description'] as const
const TASK_REFS = ['state', 'assignee', 'parent', 'cycle'] as const

/** Per action: the fields it needs, the ones it takes, and what it creates (and so what its handle names). */
export const ACTIONS: Record<
  PlanAction,
  { needs: (keyof PlanStep)[]; takes: (keyof PlanStep)[]; creates?: RecordType }
> = {
  create_task: { needs: ['team', 'title'], takes: [...TASK_REFS, ...TASK_FIELDS], creates: 'task' },
  update_task: { needs: ['task'], takes: [...TASK_REFS, ...TASK_FIELDS] },
  move_task: { needs: ['task', 'state'], takes: [] },
  assign_task: { needs: ['task', 'assignee'], takes: [] },
  archive_task: { needs: ['task'], takes: [] },
  restore_task: { needs: ['task'], takes: [] },
  create_team: { needs: ['name', 'key'], takes: ['description'], creates: 'team' },
  create_state: { needs: ['team', 'name', 'category'], takes: ['color', 'description'], creates: 'state' },
  label_task: { needs: ['task', 'label'], takes: [] },
  unlabel_task: { needs: ['task', 'label'], takes: [] },
  link_tasks: { needs: ['task', 'link', 'other'], takes: [] },
  unlink_tasks: { needs: ['task', 'link', 'other'], takes: [] },
  set_parent: { needs: ['task', 'parent'], takes: [] },
  comment: { needs: ['task', 'body'], takes: [] },
  create_cycle: { needs: ['team', 'startsAt', 'endsAt'], takes: ['name', 'description'], creates: 'cycle' },
  add_to_cycle: { needs: ['task', 'cycle'], takes: [] },
  remove_from_cycle: { needs: ['task'], takes: [] },
  create_label: { needs: ['name'], takes: ['team', 'color', 'description'], creates: 'label' },
  update_label: { needs: ['label'], takes: ['team', ...LABEL_FIELDS] },
  archive_label: { needs: ['label'], takes: ['team'] },
  subscribe: { needs: ['task'], takes: ['person'] },
  add_link: { needs: ['task', 'url'], takes: ['title'] },
  react: { needs: ['emoji'], takes: ['task', 'comment'] },
  resolve_comment: { needs: ['comment'], takes: [] },
  create_project: { needs: ['name', 'team'], takes: ['description', 'priority'], creates: 'project' },
  create_milestone: {
    needs: ['project', 'name'],
    takes: ['description', 'targetDate'],
    creates: 'milestone',
  },
  add_to_project: { needs: ['task', 'project'], takes: ['milestone'] },
  post_update: { needs: ['project', 'health', 'body'], takes: [] },
}

/** Label actions whose label is named without a task: within `team` when given, else across the workspace. */
export const LABEL_ACTIONS: readonly PlanAction[] = ['update_label', 'archive_label']

/** Which record type a reference field holds (and so which `$handle`s it accepts). */
export const REF_TYPES: Partial<Record<keyof PlanStep, RecordType>> = {
  task: 'task',
  team: 'team',
  other: 'task',
  parent: 'task',
  label: 'label',
  cycle: 'cycle',
  project: 'project',
  milestone: 'milestone',
}
