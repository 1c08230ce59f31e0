import { Type } from '@sinclair/typebox'
import { IdSchema, type LabelId, type ProgramId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { programExample } from './examples.ts'
import { addProgramLabel, removeProgramLabel } from './labels.ts'
import { programPath, programTarget } from './operations.ts'
import { Program } from './schemas.ts'

const labelsPath = `${programPath}/labels`
const labelPath = `${labelsPath}/{labelId}`

/** Labels on programs, as on projects (`projects.labels.*`): the same org labels, the same rule. */
export const programLabelOperations: AnyOperation[] = [
  declareOperation({
    id: 'programs.labels.add',
    method: 'POST',
    path: labelsPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Add a label to a program',
    description:
      'An active org label, as on projects (team labels apply to one team; 422 `reference_not_found` otherwise). ' +
      "A label of a group replaces the program's other label of that group. Adding a label the program carries " +
      'changes nothing. Needs `contribute` on the program; answers with the program.',
    params: Type.Object(paramsOf(labelsPath), { additionalProperties: false }),
    body: Type.Object({ labelId: IdSchema('LabelId') }, { additionalProperties: false }),
    response: Program,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found', 'reference_not_found'],
    examples: { request: { labelId: programExample.labelIds[0] }, response: programExample },
    run: (ctx, { params, body }) =>
      addProgramLabel(ctx, params.programId as ProgramId, (body as { labelId: LabelId }).labelId),
  }),
  declareOperation({
    id: 'programs.labels.remove',
    method: 'DELETE',
    path: labelPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Remove a label from a program',
    description:
      'Removing a label the program does not carry changes nothing; a label that does not exist is a 404. Needs ' +
      '`contribute` on the program; answers with the program.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: Program,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found'],
    examples: { response: { ...programExample, labelIds: [] } },
    run: (ctx, { params }) =>
      removeProgramLabel(ctx, params.programId as ProgramId, params.labelId as LabelId),
  }),
]
