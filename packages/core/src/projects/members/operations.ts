import { Type } from '@sinclair/typebox'
import type { LabelId, MemberId, ProjectId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf, subListOperation } from '../../kernel/resource.ts'
import { projectExample } from '../examples.ts'
import { Project, ProjectMember } from '../schemas.ts'
import {
  addProjectLabel,
  addProjectMember,
  listProjectMembers,
  removeProjectLabel,
  removeProjectMember,
} from './members.ts'

const projectPath = '/v1/orgs/{orgId}/projects/{projectId}'
const memberPath = `${projectPath}/members/{memberId}`
const labelsPath = `${projectPath}/labels`
const labelPath = `${labelsPath}/{labelId}`
const projectTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'project' as const,
  id: params.projectId as string,
})
const memberExample = {
  projectId: projectExample.id,
  memberId: projectExample.leadId,
  addedAt: projectExample.createdAt,
}

/** A project's members and labels. */
export const projectMemberOperations: AnyOperation[] = [
  subListOperation({
    id: 'projects.members.list',
    path: `${projectPath}/members`,
    tag: 'Projects',
    summary: "List a project's members",
    description: 'The members working on the project, the lead among them, by member id.',
    item: ProjectMember,
    itemName: 'ProjectMember',
    examples: { response: { data: [memberExample], nextCursor: null } },
    run: (ctx, params, query) => listProjectMembers(ctx, params.projectId as ProjectId, query),
  }),
  declareOperation({
    id: 'projects.members.add',
    method: 'PUT',
    path: memberPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Add a member to a project',
    description:
      'An active member of the org (404 otherwise). Idempotent: adding a member again changes nothing, emits ' +
      'nothing and answers the same record (same `addedAt`). Setting a lead adds them too. Needs `assign` on the project.',
    params: Type.Object(paramsOf(memberPath), { additionalProperties: false }),
    response: ProjectMember,
    status: 200,
    capability: 'assign',
    target: projectTarget,
    errors: ['not_found'],
    examples: { response: memberExample },
    run: (ctx, { params }) =>
      addProjectMember(ctx, params.projectId as ProjectId, params.memberId as MemberId),
  }),
  declareOperation({
    id: 'projects.members.remove',
    method: 'DELETE',
    path: memberPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Remove a member from a project',
    description:
      'The lead cannot be removed while lead (409 `conflict`: set another lead or none first). Idempotent: a ' +
      'member not in the project changes nothing (204, no event). Needs `assign` on the project.',
    params: Type.Object(paramsOf(memberPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'assign',
    target: projectTarget,
    errors: ['not_found', 'conflict'],
    run: async (ctx, { params }) => {
      await removeProjectMember(ctx, params.projectId as ProjectId, params.memberId as MemberId)
      return undefined
    },
  }),
  declareOperation({
    id: 'projects.labels.add',
    method: 'PUT',
    path: labelPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Add a label to a project',
    description:
      'An active org label (team labels apply to one team, a project spans teams; 422 `reference_not_found` ' +
      "otherwise). A label of a group replaces the project's other label of that group. Idempotent: adding a label the " +
      'project carries changes nothing and emits nothing. Answers with the project.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: Project,
    status: 200,
    capability: 'contribute',
    target: projectTarget,
    errors: ['not_found', 'reference_not_found'],
    examples: { response: projectExample },
    run: (ctx, { params }) => addProjectLabel(ctx, params.projectId as ProjectId, params.labelId as LabelId),
  }),
  declareOperation({
    id: 'projects.labels.remove',
    method: 'DELETE',
    path: labelPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Remove a label from a project',
    description:
      'Takes the label off the project. Idempotent: a label the project does not carry changes nothing (204, no ' +
      'event); a label that does not exist is a 404. Needs `contribute` on the project.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'contribute',
    target: projectTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeProjectLabel(ctx, params.projectId as ProjectId, params.labelId as LabelId)
      return undefined
    },
  }),
]
