import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { automationRuleRepo, automationRunRepo, ruleEngineRepo } from './rules.ts'

/** Automation rules, their runs, and the rule engine's positions. */
export const rulesStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({
    automationRules: automationRuleRepo(db),
    automationRuns: automationRunRepo(db),
    ruleEngine: ruleEngineRepo(db, dialect),
  }) satisfies Partial<Store>
