import type { CustomFieldId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { changesOf, currentOrg } from '../orgs/service.ts'
import { recordProjectHistory } from '../projects/history-records.ts'
import { emitProject } from '../projects/project-records.ts'
import type { Project } from '../projects/schemas.ts'
import { requireProject } from '../projects/service.ts'
import type { CustomFieldValue } from './schemas.ts'
import { fieldChangeEntries, planFieldValues, requireUsableField, writeFieldValues } from './values.ts'

/**
 * Sets (or with null clears) one field on a project: history, `updatedAt`, a `project.updated`
 * event. The field applies when it lists one of the project's teams, all of them counted, not
 * only those the caller sees.
 */
export async function setProjectField(
  ctx: OperationContext,
  projectId: ProjectId,
  fieldId: CustomFieldId,
  value: CustomFieldValue | null,
): Promise<Project> {
  const project = await requireProject(ctx, projectId)
  const whole = await ctx.store.projects.get(currentOrg(ctx).id, project.id, UNSCOPED)
  if (!whole) throw notFound('Project')
  const holder = {
    orgId: project.orgId,
    kind: 'project',
    id: project.id,
    teamIds: whole.teamIds,
    fields: project.fields,
  } as const
  await requireUsableField(ctx, holder, fieldId)
  const changes = await planFieldValues(ctx, holder, { [fieldId]: value }, '/body')
  if (changes.length === 0) return project
  await ctx.store.projects.update(project.orgId, project.id, { updatedAt: ctx.now })
  await writeFieldValues(ctx, holder, changes)
  const next = await requireProject(ctx, project.id)
  await recordProjectHistory(ctx, project, fieldChangeEntries(changes))
  emitProject(ctx, 'project.updated', next, {
    project: next,
    changes: changesOf(project, { fields: next.fields }),
  })
  return next
}
