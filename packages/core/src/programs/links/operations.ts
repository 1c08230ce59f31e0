import { Type } from '@sinclair/typebox'
import type { MemberId, ProgramId, ProjectId, TeamId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { paramsOf, subListOperation, unlinkOperation } from '../../kernel/resource.ts'
import { examples } from '../examples.ts'
import { listProgramHistory } from '../history.ts'
import { programParams, programPath, programTarget } from '../operations.ts'
import {
  addProgramMember,
  addProgramTeam,
  listProgramMembers,
  listProgramTeams,
  removeProgramMember,
  removeProgramTeam,
} from '../people.ts'
import { programRollup } from '../rollup.ts'
import { ProgramHistoryEntry, ProgramMember, ProgramProject, ProgramRollup, ProgramTeam } from '../schemas.ts'
import { addProgramProject, listProgramProjects, moveProgramProject, removeProgramProject } from './links.ts'

const params = (path: string) => Type.Object(paramsOf(path), { additionalProperties: false })
const programId = (p: Record<string, unknown>) => p.programId as ProgramId

const projectsPath = `${programPath}/projects`
const projectPath = `${projectsPath}/{projectId}`

const projects: AnyOperation[] = [
  subListOperation({
    id: 'programs.projects.list',
    path: projectsPath,
    tag: 'Programs',
    summary: "List a program's projects",
    description:
      'The projects of the program the caller can view, in program order; projects hidden from the caller are ' +
      'neither listed nor counted.',
    item: ProgramProject,
    itemName: 'ProgramProject',
    examples: examples.projects,
    run: (ctx, p, query) => listProgramProjects(ctx, programId(p), query),
  }),
  declareOperation({
    id: 'programs.projects.add',
    method: 'PUT',
    path: projectPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Add a project to a program',
    requires: '`contribute` on the program and `manage` on the project it adds',
    description:
      'Appends the project to the program (a project may be in several programs). Needs `contribute` on the ' +
      'program and `manage` on the project, since what holds a project will pass its grants down to it. ' +
      'Idempotent: adding a project already in the program changes nothing, emits nothing and answers the same ' +
      'record (same `addedAt` and place). A retired program takes no new projects (409 `conflict`); an archived ' +
      'project is 409 `archived`; a project the caller cannot view is a 404.',
    params: params(projectPath),
    response: ProgramProject,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found', 'archived', 'conflict'],
    examples: examples.projectAdd,
    run: (ctx, { params }) => addProgramProject(ctx, programId(params), params.projectId as ProjectId),
  }),
  unlinkOperation({
    id: 'programs.projects.remove',
    path: projectPath,
    tag: 'Programs',
    summary: 'Remove a project from a program',
    description:
      'Unlinks the project; it stays as it is. Idempotent: a project not in the program changes nothing (204, no ' +
      'event). Needs `contribute` on the program.',
    capability: 'contribute',
    target: programTarget,
    run: (ctx, params) => removeProgramProject(ctx, programId(params), params.projectId as ProjectId),
  }),
  declareOperation({
    id: 'programs.projects.move',
    method: 'POST',
    path: `${projectPath}/move`,
    tag: 'Programs',
    scope: 'work:write',
    summary: "Move a project before or after another in a program's order",
    description:
      'Puts the project just before `beforeId` or just after `afterId` (exactly one), another project of the same ' +
      'program that the caller can view. The order is decided among the projects the caller can view, so those ' +
      "hidden from the caller keep their places; the program's positions are renumbered from 0. A move that " +
      'changes nothing emits nothing. Needs `contribute` on the program; 404 when the project is not in it.',
    params: params(projectPath),
    body: MoveBody('ProjectId', 'project of the program'),
    response: ProgramProject,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found', 'reference_not_found', 'archived'],
    examples: examples.projectMove,
    run: (ctx, { params, body }) =>
      moveProgramProject(ctx, programId(params), params.projectId as ProjectId, {
        beforeId: body.beforeId as ProjectId | undefined,
        afterId: body.afterId as ProjectId | undefined,
      }),
  }),
]

const memberPath = `${programPath}/members/{memberId}`
const teamPath = `${programPath}/teams/{teamId}`

const people: AnyOperation[] = [
  subListOperation({
    id: 'programs.members.list',
    path: `${programPath}/members`,
    tag: 'Programs',
    summary: "List a program's members",
    description: 'The people taking part in the program, by member id.',
    item: ProgramMember,
    itemName: 'ProgramMember',
    examples: examples.members,
    run: (ctx, p, query) => listProgramMembers(ctx, programId(p), query),
  }),
  declareOperation({
    id: 'programs.members.add',
    method: 'PUT',
    path: memberPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Add a member to a program',
    description:
      '`memberId` must be an active member. Idempotent: adding a member again changes nothing, emits nothing and answers the same record (same `addedAt`). Needs `assign` on the program.',
    params: params(memberPath),
    response: ProgramMember,
    status: 200,
    capability: 'assign',
    target: programTarget,
    errors: ['not_found', 'reference_not_found', 'archived'],
    examples: examples.memberAdd,
    run: (ctx, { params }) => addProgramMember(ctx, programId(params), params.memberId as MemberId),
  }),
  unlinkOperation({
    id: 'programs.members.remove',
    path: memberPath,
    tag: 'Programs',
    summary: 'Remove a member from a program',
    description:
      'Idempotent: a member not in the program changes nothing (204, no event). Needs `assign` on the program.',
    capability: 'assign',
    target: programTarget,
    run: (ctx, params) => removeProgramMember(ctx, programId(params), params.memberId as MemberId),
  }),
  subListOperation({
    id: 'programs.teams.list',
    path: `${programPath}/teams`,
    tag: 'Programs',
    summary: "List a program's teams",
    description: 'The teams working in the program that the caller may view, by team id.',
    item: ProgramTeam,
    itemName: 'ProgramTeam',
    examples: examples.teams,
    run: (ctx, p, query) => listProgramTeams(ctx, programId(p), query),
  }),
  declareOperation({
    id: 'programs.teams.add',
    method: 'PUT',
    path: teamPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Add a team to a program',
    description:
      'Idempotent: adding a team again changes nothing, emits nothing and answers the same record (same ' +
      '`addedAt`). The team then holds the program (its grants count on it), so the caller needs `contribute` ' +
      'on the program and on the team.',
    params: params(teamPath),
    response: ProgramTeam,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found', 'archived'],
    examples: examples.teamAdd,
    run: (ctx, { params }) => addProgramTeam(ctx, programId(params), params.teamId as TeamId),
  }),
  unlinkOperation({
    id: 'programs.teams.remove',
    path: teamPath,
    tag: 'Programs',
    summary: 'Remove a team from a program',
    description:
      'Idempotent: a team not in the program changes nothing (204, no event). Needs `contribute` on the program.',
    capability: 'contribute',
    target: programTarget,
    run: (ctx, params) => removeProgramTeam(ctx, programId(params), params.teamId as TeamId),
  }),
]

const rollup = declareOperation({
  id: 'programs.rollup',
  method: 'GET',
  path: `${programPath}/rollup`,
  tag: 'Programs',
  scope: 'work:read',
  summary: "A program's rolled-up progress and health",
  description:
    'Computed over the unarchived projects of the program the caller can view, and their tasks the caller can ' +
    'view, so a rollup never reveals hidden work. Progress pools those tasks: completed estimate points over all ' +
    'points except canceled ones, or task counts when nothing is estimated. `computedHealth` is the worst of the ' +
    "program's own latest update and the reported health of each open (not completed or canceled) project, with " +
    'the reasons.',
  params: programParams,
  response: ProgramRollup,
  status: 200,
  errors: ['not_found'],
  examples: examples.rollup,
  run: (ctx, { params }) => programRollup(ctx, programId(params)),
})

const history = subListOperation({
  id: 'programs.history.list',
  path: `${programPath}/history`,
  tag: 'Programs',
  summary: "List a program's history",
  description:
    'Field changes and project, member and team links and unlinks, newest first, each with who made it. ' +
    'Entries about a project or team the caller cannot view are left out. Status updates keep their own history.',
  item: ProgramHistoryEntry,
  itemName: 'ProgramHistoryEntry',
  examples: examples.history,
  run: (ctx, p, query) => listProgramHistory(ctx, programId(p), query),
})

export const programLinkOperations: AnyOperation[] = [...projects, ...people, rollup, history]
