import type { ProjectId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { requireProject } from '../service.ts'
import type { ProjectHistoryEntry } from './records.ts'

/** A project's history, oldest first; anyone who can view the project reads it. */
export async function listProjectHistory(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProjectHistoryEntry>> {
  const project = await requireProject(ctx, projectId)
  return readPage(ctx, {
    scope: ['projects.history.list', project.orgId, project.id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (e: ProjectHistoryEntry) => e.createdAt,
    fetch: (page) => ctx.store.projectHistory.list(project.orgId, project.id, page),
  })
}
