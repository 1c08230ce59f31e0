import { Type } from '@sinclair/typebox'
import type { InitiativeId, MemberId, ProjectId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { paramsOf, subListOperation } from '../../kernel/resource.ts'
import { examples } from '../examples.ts'
import { INITIATIVES_TAG, initiativePath, initiativeTarget } from '../operations.ts'
import { moveInitiativeProject } from '../project-order.ts'
import { InitiativeMember, InitiativeProject } from '../schemas.ts'
import {
  addInitiativeMember,
  addInitiativeProject,
  listInitiativeMembers,
  listInitiativeProjects,
  removeInitiativeMember,
  removeInitiativeProject,
} from './links.ts'

const projectPath = `${initiativePath}/projects/{projectId}`
const projectParams = Type.Object(paramsOf(projectPath), { additionalProperties: false })
const projects: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.projects.list',
    path: `${initiativePath}/projects`,
    tag: INITIATIVES_TAG,
    summary: "List an initiative's projects",
    description:
      'Its linked projects the caller can view, in the initiative’s order: linking appends, ' +
      '`initiatives.projects.move` moves one.',
    item: InitiativeProject,
    itemName: 'InitiativeProject',
    examples: examples.projects,
    run: (ctx, params, query) => listInitiativeProjects(ctx, params.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.projects.add',
    method: 'PUT',
    path: projectPath,
    tag: INITIATIVES_TAG,
    scope: 'work:write',
    summary: 'Link a project to an initiative',
    requires: '`contribute` on the initiative and `manage` on the project it links',
    description:
      'Appends the project to the initiative’s projects; idempotent. Needs `contribute` on the initiative and ' +
      '`manage` on the project: a link lets whoever holds the initiative reach the project. A project may serve ' +
      'several initiatives.',
    params: projectParams,
    response: InitiativeProject,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived'],
    examples: examples.projectAdd,
    run: (ctx, { params }) =>
      addInitiativeProject(ctx, params.initiativeId as InitiativeId, params.projectId as ProjectId),
  }),
  declareOperation({
    id: 'initiatives.projects.move',
    method: 'POST',
    path: `${projectPath}/move`,
    tag: INITIATIVES_TAG,
    scope: 'work:write',
    summary: "Move a project before or after another in an initiative's order",
    description:
      'Puts the linked project just before `beforeId` or just after `afterId` (exactly one), another project of ' +
      'the same initiative that the caller can view. The order is decided among the projects the caller can ' +
      "view, so those hidden from the caller keep their places; the initiative's positions are renumbered from " +
      '0. A move that changes nothing emits nothing. Needs `contribute` on the initiative; 404 when the project ' +
      'is not linked.',
    params: projectParams,
    body: MoveBody('ProjectId', 'project of the initiative'),
    response: InitiativeProject,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'reference_not_found', 'archived'],
    examples: examples.projectMove,
    run: (ctx, { params, body }) =>
      moveInitiativeProject(ctx, params.initiativeId as InitiativeId, params.projectId as ProjectId, {
        beforeId: body.beforeId as ProjectId | undefined,
        afterId: body.afterId as ProjectId | undefined,
      }),
  }),
  declareOperation({
    id: 'initiatives.projects.remove',
    method: 'DELETE',
    path: projectPath,
    tag: INITIATIVES_TAG,
    scope: 'work:write',
    summary: 'Unlink a project from an initiative',
    description:
      'The project stays as it is. Idempotent: a project not linked changes nothing (204, no event). Needs ' +
      '`contribute` on the initiative.',
    params: projectParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeProject(ctx, params.initiativeId as InitiativeId, params.projectId as ProjectId)
      return undefined
    },
  }),
]

const memberPath = `${initiativePath}/members/{memberId}`
const memberParams = Type.Object(paramsOf(memberPath), { additionalProperties: false })
const members: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.members.list',
    path: `${initiativePath}/members`,
    tag: INITIATIVES_TAG,
    summary: "List an initiative's members",
    description: 'The people working on the initiative, in the order they were added.',
    item: InitiativeMember,
    itemName: 'InitiativeMember',
    examples: examples.members,
    run: (ctx, params, query) => listInitiativeMembers(ctx, params.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.members.add',
    method: 'PUT',
    path: memberPath,
    tag: INITIATIVES_TAG,
    scope: 'work:write',
    summary: 'Add a member to an initiative',
    description:
      'An active member of the org. Idempotent: adding a member again changes nothing, emits nothing and answers ' +
      'the same record (same `addedAt`). Membership says who works on it and grants nothing. Needs `contribute` ' +
      'on the initiative.',
    params: memberParams,
    response: InitiativeMember,
    status: 200,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found', 'archived', 'reference_not_found'],
    examples: examples.memberAdd,
    run: (ctx, { params }) =>
      addInitiativeMember(ctx, params.initiativeId as InitiativeId, params.memberId as MemberId),
  }),
  declareOperation({
    id: 'initiatives.members.remove',
    method: 'DELETE',
    path: memberPath,
    tag: INITIATIVES_TAG,
    scope: 'work:write',
    summary: 'Remove a member from an initiative',
    description:
      'Idempotent: a member not in the initiative changes nothing (204, no event). Needs `contribute` on the initiative.',
    params: memberParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target: initiativeTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeMember(ctx, params.initiativeId as InitiativeId, params.memberId as MemberId)
      return undefined
    },
  }),
]

/** An initiative's linked projects (in its order) and its members. */
export const initiativeLinkOperations: AnyOperation[] = [...projects, ...members]
