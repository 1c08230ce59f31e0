import type { AnyOperation } from './operation.ts'
import { orgsCatalogue } from './operations/orgs.ts'
import { configOperation } from './operations/system.ts'
import { tasksCatalogue } from './operations/tasks.ts'
import { teamsCatalogue } from './operations/teams.ts'

/** Every operation of the API, in documentation order. Routes, validation, OpenAPI and docs all read this. */
export const OPERATIONS: readonly AnyOperation[] = [configOperation, ...orgsCatalogue, ...teamsCatalogue, ...tasksCatalogue]

const seen = new Set<string>()
for (const op of OPERATIONS) {
  const route = `${op.method} ${op.path}`
  if (seen.has(op.id) || seen.has(route)) throw new Error(`Duplicate operation ${op.id} (${route})`)
  seen.add(op.id)
  seen.add(route)
}
