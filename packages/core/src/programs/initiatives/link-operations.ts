import { Type } from '@sinclair/typebox'
import { initiativeExample } from '../../initiatives/examples.ts'
import { exampleId as id } from '../../kernel/examples.ts'
import type { InitiativeId, ProgramId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf, subListOperation } from '../../kernel/resource.ts'
import { projectExample } from '../../projects/examples.ts'
import { programExample } from '../examples.ts'
import { InitiativeProgram, ProgramInitiative, Timeline } from '../links/schemas.ts'
import { programParams, programPath } from '../operations.ts'
import { initiativeTimeline, programTimeline } from '../timeline.ts'
import {
  addInitiativeProgram,
  listInitiativePrograms,
  listProgramInitiatives,
  removeInitiativeProgram,
} from './links.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-06T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

const initiativePath = '/v1/orgs/{orgId}/initiatives/{initiativeId}'
const initiativeParams = Type.Object(paramsOf(initiativePath), { additionalProperties: false })
const onInitiative = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'initiative' as const,
  id: params.initiativeId as string,
})
const programsPath = `${initiativePath}/programs`
const programLinkPath = `${programsPath}/{programId}`

const initiativeProgramExample = {
  initiativeId: initiativeExample.id,
  programId: programExample.id,
  addedAt: at,
  program: programExample,
}
const timelineExample = {
  projects: [
    {
      id: projectExample.id,
      name: 'Cache rollout',
      statusCategory: 'started',
      startDate: '2030-01-06',
      targetDate: '2030-03-01',
      health: 'atRisk',
      milestones: [{ id: id('mile'), name: 'Beta', targetDate: '2030-02-01', status: 'next' }],
    },
    {
      id: id('proj', 1),
      name: 'Failover drills',
      statusCategory: 'planned',
      startDate: '2030-03-02',
      targetDate: null,
      health: null,
      milestones: [],
    },
  ],
  dependencies: [
    {
      id: id('prel'),
      projectId: projectExample.id,
      milestoneId: id('mile'),
      relatedProjectId: id('proj', 1),
      relatedMilestoneId: null,
    },
  ],
  truncated: false,
}

const timelineDescription =
  'Start and target dates, health and milestones (with their derived status) of each project, and the ' +
  '`blocks` relations between them, in one response. Only unarchived projects the caller can view are ' +
  'shown, so the timeline never reveals hidden work; at most 200 projects (`truncated` says when more qualified).'

export const programInitiativeOperations: AnyOperation[] = [
  subListOperation({
    id: 'initiatives.programs.list',
    path: programsPath,
    tag: 'Initiatives',
    summary: "List an initiative's programs",
    description:
      'The programs the initiative includes that the caller can view, in the order they were linked. An ' +
      'initiative the caller cannot view is a 404.',
    item: InitiativeProgram,
    itemName: 'InitiativeProgram',
    examples: { response: page(initiativeProgramExample) },
    run: (ctx, p, query) => listInitiativePrograms(ctx, p.initiativeId as InitiativeId, query),
  }),
  declareOperation({
    id: 'initiatives.programs.add',
    method: 'PUT',
    path: programLinkPath,
    tag: 'Initiatives',
    scope: 'work:write',
    summary: 'Link a program to an initiative',
    requires: '`contribute` on the initiative and `manage` on the program it links',
    description:
      'Appends the program to the initiative (a program may serve several initiatives). Needs `contribute` on the ' +
      'initiative and `manage` on the program. Idempotent: linking a program again changes nothing, emits ' +
      'nothing and answers the same record (same `addedAt`). An archived initiative or program answers 409 ' +
      '`archived`; a program the caller cannot view is a 404.',
    params: Type.Object(paramsOf(programLinkPath), { additionalProperties: false }),
    response: InitiativeProgram,
    status: 200,
    capability: 'contribute',
    target: onInitiative,
    errors: ['not_found', 'archived'],
    examples: { response: initiativeProgramExample },
    run: (ctx, { params }) =>
      addInitiativeProgram(ctx, params.initiativeId as InitiativeId, params.programId as ProgramId),
  }),
  declareOperation({
    id: 'initiatives.programs.remove',
    method: 'DELETE',
    path: programLinkPath,
    tag: 'Initiatives',
    scope: 'work:write',
    summary: 'Unlink a program from an initiative',
    description:
      'The program stays as it is. Idempotent: a program not linked changes nothing (204, no event). Needs ' +
      '`contribute` on the initiative.',
    params: Type.Object(paramsOf(programLinkPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'contribute',
    target: onInitiative,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeProgram(ctx, params.initiativeId as InitiativeId, params.programId as ProgramId)
      return undefined
    },
  }),
  subListOperation({
    id: 'programs.initiatives.list',
    path: `${programPath}/initiatives`,
    tag: 'Programs',
    summary: "List a program's initiatives",
    description:
      'The initiatives that include the program and that the caller can view, oldest link first; hidden ones ' +
      'are neither listed nor counted.',
    item: ProgramInitiative,
    itemName: 'ProgramInitiative',
    examples: {
      response: page({
        id: initiativeExample.id,
        addedBy: id('mem'),
        addedAt: at,
        initiative: initiativeExample,
      }),
    },
    run: (ctx, p, query) => listProgramInitiatives(ctx, p.programId as ProgramId, query),
  }),
  declareOperation({
    id: 'programs.timeline',
    method: 'GET',
    path: `${programPath}/timeline`,
    tag: 'Programs',
    scope: 'work:read',
    summary: "Read a program's timeline",
    description: `The program's projects. ${timelineDescription}`,
    params: programParams,
    response: Timeline,
    status: 200,
    errors: ['not_found'],
    examples: { response: timelineExample },
    run: (ctx, { params }) => programTimeline(ctx, params.programId as ProgramId),
  }),
  declareOperation({
    id: 'initiatives.timeline',
    method: 'GET',
    path: `${initiativePath}/timeline`,
    tag: 'Initiatives',
    scope: 'work:read',
    summary: "Read an initiative's timeline",
    description:
      'The projects linked to the initiative or to its unarchived sub-initiatives, and those of the programs ' +
      `they include, each once. ${timelineDescription}`,
    params: initiativeParams,
    response: Timeline,
    status: 200,
    errors: ['not_found'],
    examples: { response: timelineExample },
    run: (ctx, { params }) => initiativeTimeline(ctx, params.initiativeId as InitiativeId),
  }),
]
