import { Type } from '@sinclair/typebox'
import type { InitiativeId, LabelId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf } from '../../kernel/resource.ts'
import { initiativeExample } from '../examples.ts'
import { Initiative } from '../schemas.ts'
import { addInitiativeLabel, removeInitiativeLabel } from './labels.ts'

const labelsPath = '/v1/orgs/{orgId}/initiatives/{initiativeId}/labels'
const labelPath = `${labelsPath}/{labelId}`
const target = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'initiative' as const,
  id: params.initiativeId as string,
})

/** Labels on initiatives, as on projects (`projects.labels.*`): the same org labels, the same rule. */
export const initiativeLabelOperations: AnyOperation[] = [
  declareOperation({
    id: 'initiatives.labels.add',
    method: 'PUT',
    path: labelPath,
    tag: 'Initiatives',
    scope: 'work:write',
    summary: 'Add a label to an initiative',
    description:
      'An active org label, as on projects (team labels apply to one team; 422 `reference_not_found` otherwise). ' +
      "A label of a group replaces the initiative's other label of that group. Idempotent: adding a label the initiative " +
      'carries changes nothing and emits nothing. Needs `contribute` on the initiative; answers with the initiative.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: Initiative,
    status: 200,
    capability: 'contribute',
    target,
    errors: ['not_found', 'reference_not_found'],
    examples: { response: initiativeExample },
    run: (ctx, { params }) =>
      addInitiativeLabel(ctx, params.initiativeId as InitiativeId, params.labelId as LabelId),
  }),
  declareOperation({
    id: 'initiatives.labels.remove',
    method: 'DELETE',
    path: labelPath,
    tag: 'Initiatives',
    scope: 'work:write',
    summary: 'Remove a label from an initiative',
    description:
      'Takes the label off the initiative. Idempotent: a label the initiative does not carry changes nothing (204, ' +
      'no event); a label that does not exist is a 404. Needs `contribute` on the initiative.',
    params: Type.Object(paramsOf(labelPath), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: 'contribute',
    target,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await removeInitiativeLabel(ctx, params.initiativeId as InitiativeId, params.labelId as LabelId)
      return undefined
    },
  }),
]
