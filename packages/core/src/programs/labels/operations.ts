import { Type } from '@sinclair/typebox'
import type { LabelId, ProgramId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { programExample } from '../examples.ts'
import { programPath, programTarget } from '../operations.ts'
import { Program } from '../schemas.ts'
import { addProgramLabel, removeProgramLabel } from './labels.ts'

const labelsPath = `${programPath}/labels`
const labelPath = `${labelsPath}/{labelId}`

/** Labels on programs, as on projects (`projects.labels.*`): the same org labels, the same rule. */
export const programLabelOperations: AnyOperation[] = [
  declareOperation({
    id: 'programs.labels.add',
    method: 'PUT',
    path: labelPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Add a label to a program',
    description:
      'An active org label, as on projects (team labels apply to one team; 422 `reference_not_found` otherwise). ' +
      "A label of a group replaces the program's other label of that group. Idempotent: adding a label the program carries " +
      'changes nothing and emits nothing. Needs `contribute` on the program; answers with the program.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: Program,
    status: 200,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found', 'reference_not_found'],
    examples: { response: programExample },
    run: (ctx, { params }) => addProgramLabel(ctx, params.programId as ProgramId, params.labelId as LabelId),
  }),
  declareOperation({
    id: 'programs.labels.remove',
    method: 'DELETE',
    path: labelPath,
    tag: 'Programs',
    scope: 'work:write',
    summary: 'Remove a label from a program',
    description:
      'Takes the label off the program. Idempotent: a label the program does not carry changes nothing (204, no ' +
      'event); a label that does not exist is a 404. Needs `contribute` on the program.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'contribute',
    target: programTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeProgramLabel(ctx, params.programId as ProgramId, params.labelId as LabelId)
      return undefined
    },
  }),
]
