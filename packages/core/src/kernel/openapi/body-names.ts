/**
 * The component name of an operation's JSON request body, when its declaration names none (`$id`):
 * the operation id's nouns in the singular, then its act, in PascalCase. `tasks.create` →
 * `TaskCreate`, `tasks.comments.create` → `TaskCommentCreate`, `me.dailyPlan.items.move` →
 * `MeDailyPlanItemMove`, `orgs.settings.update` → `OrgSettingsUpdate`. A client generator then
 * types every body by a name a reader can find from the operation (docs/api-conventions.md,
 * "Request bodies").
 */
export function bodySchemaName(operationId: string): string {
  const segments = operationId.split('.')
  const act = segments.pop() ?? ''
  return [...segments.map(singular), act].map(pascal).join('')
}

// Nouns that name one thing although they end in `s`: a record's settings, a person's preferences.
const ALWAYS_PLURAL = new Set(['settings', 'preferences'])

/** The singular of a camelCase noun, by its last word: `timeEntries` → `timeEntry`, `projectStatuses` → `projectStatus`. */
function singular(noun: string): string {
  const last = noun.match(/[A-Z]?[a-z]+$/)?.[0] ?? noun
  if (ALWAYS_PLURAL.has(last.toLowerCase())) return noun
  if (noun.endsWith('ies')) return `${noun.slice(0, -3)}y`
  if (/(ss|us)es$/.test(noun)) return noun.slice(0, -2)
  if (noun.endsWith('s') && !noun.endsWith('ss')) return noun.slice(0, -1)
  return noun
}

const pascal = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)
