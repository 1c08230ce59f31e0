import { exampleId as id } from '../../kernel/examples.ts'
import type { OperationExamples } from '../../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-06T09:30:00.000Z'

export const relationExample = {
  id: id('prel'),
  orgId: id('org'),
  type: 'blocks',
  projectId: id('proj'),
  milestoneId: id('mile'),
  relatedProjectId: id('proj', 1),
  relatedMilestoneId: null,
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
}

export const relationExamples = {
  list: { response: { data: [relationExample], nextCursor: null } },
  get: { response: relationExample },
  // Beta must ship before another project can start.
  create: {
    request: { type: 'blocks', milestoneId: id('mile'), relatedProjectId: id('proj', 2) },
    response: { ...relationExample, id: id('prel', 1), relatedProjectId: id('proj', 2) },
  },
  update: { request: { milestoneId: null }, response: { ...relationExample, milestoneId: null } },
} satisfies Record<string, OperationExamples>
