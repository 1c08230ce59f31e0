import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { ProgramId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { programExamples } from './examples.ts'
import { Program, ProgramStatusSchema } from './schemas.ts'
import {
  createProgram,
  deleteProgram,
  listPrograms,
  type ProgramFields,
  requireProgram,
  setProgramArchived,
  updateProgram,
} from './service.ts'

// The bodies take the program's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(Program, {
  description: true,
  icon: true,
  color: true,
  ownerId: 'An active member, or null for none.',
})

const programResource = resourceOperations({
  name: 'program',
  plural: 'programs',
  tag: 'Programs',
  schema: Program,
  collectionPath: '/v1/orgs/{orgId}/programs',
  idParam: 'programId',
  idBrand: 'ProgramId',
  target: (p) => ({ type: 'program', id: p.programId! }),
  createTarget: (p) => ({ type: 'org', id: p.orgId! }),
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: Type.Object(
    { ...fieldsOf(Program, { name: true }), ...editable },
    { $id: 'ProgramCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      ...optionalFieldsOf(Program, { name: true }),
      ...editable,
      ...optionalFieldsOf(Program, { status: true }),
    },
    { $id: 'ProgramUpdate', additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    status: Type.Optional(ProgramStatusSchema),
    ownerId: Type.Optional(
      Type.String({
        pattern: '^(none|mem_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A MemberId, or `none` for programs without an owner.',
      }),
    ),
    teamId: Type.Optional(IdSchema('TeamId', 'Only programs this team works in.')),
    labelId: Type.Optional(IdSchema('LabelId', 'Only programs carrying this label.')),
    health: Type.Optional(
      StringEnum(['onTrack', 'atRisk', 'offTrack', 'none'] as const, {
        description:
          'Only programs whose latest unarchived status update has this health (`none`: without one).',
      }),
    ),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived programs: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['reference_not_found'],
    update: ['reference_not_found', 'conflict'],
  },
  descriptions: {
    list: 'The org’s programs the caller may view, newest first: members see every program; a guest or agent without org-wide view those a grant reaches (on the program, one of its teams or an initiative above it) or holding a project they can view, filtered in the query.',
    get:
      'A program of the org with the health of its latest status update; `programs.rollup` gives the health ' +
      'and progress computed from its projects.',
    create:
      'Needs `contribute` on the org. A program starts `active` and has no end date; `ownerId` must be an active member.',
    update:
      'Needs `contribute` on the program (the org, or one of its teams). `status` moves active → paused or ' +
      'retired, paused → active or retired, retired → active (409 `conflict` otherwise); retiring stamps ' +
      '`retiredAt`, and a retired program takes no new projects.',
    archive: 'Hides the program from default lists and freezes what it holds; its projects stay.',
    restore: 'Undoes `programs.archive`.',
    delete:
      'Needs `manage` on the program. Its projects are unlinked, not deleted; its members, teams and status ' +
      'updates go with it.',
  },
  examples: programExamples,
  handlers: {
    list: (ctx, _p, query) => listPrograms(ctx, { ...query, teamId: query.teamId as TeamId | undefined }),
    get: (ctx, p) => requireProgram(ctx, p.programId as ProgramId),
    create: (ctx, _p, body) => createProgram(ctx, { ...(body as ProgramFields), name: body.name }),
    update: (ctx, p, body) => updateProgram(ctx, p.programId as ProgramId, body as ProgramFields),
    archive: (ctx, p) => setProgramArchived(ctx, p.programId as ProgramId, true),
    restore: (ctx, p) => setProgramArchived(ctx, p.programId as ProgramId, false),
    delete: (ctx, p) => deleteProgram(ctx, p.programId as ProgramId),
  },
})

export const programPath = '/v1/orgs/{orgId}/programs/{programId}'
export const programParams = Type.Object(paramsOf(programPath), { additionalProperties: false })
export const programTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'program' as const,
  id: params.programId as string,
})

export const programOperations: AnyOperation[] = [...programResource]
