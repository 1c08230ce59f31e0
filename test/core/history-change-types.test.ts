import { expect, it } from 'vitest'
import type { InitiativeHistoryChange } from '../../packages/core/src/initiatives/history/schemas.ts'
import { changesOfFields } from '../../packages/core/src/kernel/history-entry.ts'
import type { ProgramHistoryChange } from '../../packages/core/src/programs/schemas.ts'
import type { ProjectHistoryChange } from '../../packages/core/src/projects/history/records.ts'
import { TASK_HISTORY_FIELDS, type TaskHistoryChange } from '../../packages/core/src/tasks/history/schemas.ts'

// The recording functions take only the changes their history schema describes. `tsc` checks this
// file: every `@ts-expect-error` line must fail to compile, or the type check fails.

const cf = 'fields.cf_01JD3Q2R4S5T6V7W8X9YZABCDE' as const
const task = { title: 'Old', estimate: null } as { title: string; estimate: number | null }

const accepted: TaskHistoryChange[] = [
  { field: 'title', before: 'Old', after: 'New' },
  { field: 'created', before: null, after: { key: 'ENG-1', title: 'New' } },
  { field: cf, before: 3, after: null },
  ...changesOfFields(TASK_HISTORY_FIELDS, task, { title: 'New', estimate: 2 }),
]

const refused: TaskHistoryChange[] = [
  // @ts-expect-error a field the schema does not describe
  { field: 'titel', before: 'Old', after: 'New' },
  // @ts-expect-error a value its schema does not allow
  { field: 'title', before: 1, after: 'New' },
  // @ts-expect-error `created` records `{ key, title }`
  { field: 'created', before: null, after: { name: 'New' } },
  // @ts-expect-error custom field values are `CustomFieldValue` or null
  { field: cf, before: true, after: null },
  // @ts-expect-error an update of a field the schema does not describe
  ...changesOfFields(TASK_HISTORY_FIELDS, task, { titel: 'New' }),
]

const project: ProjectHistoryChange[] = [
  { field: 'teamIds', before: null, after: 'team_01JD3Q2R4S5T6V7W8X9YZABCDE' as never },
  // @ts-expect-error projects record `created` as `{ name }`
  { field: 'created', before: null, after: { key: 'P', title: 'P' } },
]

const program: ProgramHistoryChange[] = [
  { field: 'status', before: 'active', after: 'paused' },
  // @ts-expect-error not a program status
  { field: 'status', before: 'active', after: 'done' },
]

const initiative: InitiativeHistoryChange[] = [
  { action: 'created', changes: {} },
  { action: 'updated', changes: { status: { before: 'planned', after: 'active' } } },
  { action: 'project_updated', changes: { projectId: 'prj_1' as never, index: { before: 1, after: 0 } } },
  // @ts-expect-error a field the `updated` branch does not describe
  { action: 'updated', changes: { statu: { before: 'planned', after: 'active' } } },
  // @ts-expect-error not an initiative status
  { action: 'updated', changes: { status: { before: 'planned', after: 'done' } } },
  // @ts-expect-error `member_*` records `{ memberId }`
  { action: 'member_added', changes: { projectId: 'prj_1' as never } },
  // @ts-expect-error `created` records nothing more
  { action: 'created', changes: { note: 'moved' } },
  // @ts-expect-error an action the schema does not describe
  { action: 'renamed', changes: {} },
]

it('accepts only the changes the history schemas describe (checked by tsc)', () => {
  expect(accepted).toHaveLength(5)
  expect(refused).toHaveLength(5)
  expect(project.length + program.length).toBe(4)
  expect(initiative).toHaveLength(8)
})
