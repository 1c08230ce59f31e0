import type { MemberId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { recordProjectHistory } from '../history/records.ts'
import { emitProject, unscopedProject } from '../project-records.ts'
import type { Project } from '../schemas.ts'

/** Makes the member a member of the project (the lead is one), emitting `project.member_added` if new. */
export async function joinProject(
  ctx: OperationContext,
  project: Pick<Project, 'id' | 'orgId'>,
  memberId: MemberId,
): Promise<void> {
  if (!(await ctx.store.projects.addMember(project.orgId, project.id, memberId, ctx.now))) return
  emitProject(ctx, 'project.member_added', await unscopedProject(ctx, project.id), {
    projectId: project.id,
    memberId,
  })
  await recordProjectHistory(ctx, project, [{ field: 'members', before: null, after: memberId }])
}
