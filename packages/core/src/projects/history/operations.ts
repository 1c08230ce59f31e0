import type { ProjectId } from '../../kernel/ids.ts'
import type { AnyOperation } from '../../kernel/operation.ts'
import { subListOperation } from '../../kernel/resource.ts'
import { listProjectHistory } from './history.ts'
import { ProjectHistoryEntry } from './records.ts'

const example = {
  id: 'phst_01JD3Q2R4S5T6V7W8X9YZABCDE',
  projectId: 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE',
  actorId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
  field: 'targetDate',
  before: '2030-03-31',
  after: '2030-04-15',
  createdAt: '2030-01-06T09:30:00.000Z',
}

export const projectHistoryOperations: AnyOperation[] = [
  subListOperation({
    id: 'projects.history.list',
    path: '/v1/orgs/{orgId}/projects/{projectId}/history',
    tag: 'Projects',
    summary: "List a project's history",
    description:
      'Every change to the project, newest first: who changed which field, team, member, label, milestone or ' +
      'relation, when, from what to what. The last entry (on the last page) has the field `created`. Anyone who can view the project ' +
      'reads it.',
    item: ProjectHistoryEntry,
    itemName: 'ProjectHistoryEntry',
    examples: { response: { data: [example], nextCursor: null } },
    run: (ctx, params, query) => listProjectHistory(ctx, params.projectId as ProjectId, query),
  }),
]
