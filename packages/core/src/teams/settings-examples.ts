import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

const teamSettings = {
  teamId: id('team'),
  estimateScale: 'fibonacci',
  autoCloseDays: null,
  autoArchiveDays: 90,
  triageEnabled: true,
  defaultStateId: id('wfs'),
  updatedAt: at,
}

const triageSettings = {
  teamId: id('team'),
  responsibility: 'fixed',
  action: 'assign',
  memberIds: [id('mem'), id('mem', 1)],
  updatedAt: at,
}

export const teamSettingsExamples = {
  get: { response: teamSettings },
  update: { request: { estimateScale: 'fibonacci', triageEnabled: true }, response: teamSettings },
} satisfies Record<string, OperationExamples>

export const triageSettingsExamples = {
  get: { response: triageSettings },
  update: {
    request: { responsibility: 'fixed', action: 'assign', memberIds: triageSettings.memberIds },
    response: triageSettings,
  },
} satisfies Record<string, OperationExamples>
