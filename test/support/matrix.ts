import { describe } from 'vitest'
import { DATABASES, skipReason, type TestDatabase } from './databases.ts'

/** Runs the same suite once per database; a skipped half says why in its title. */
export function describeEachDatabase(title: string, body: (db: TestDatabase) => void): void {
  for (const db of DATABASES) {
    const reason = skipReason(db)
    describe.skipIf(Boolean(reason))(`${title} [${db.name}]${reason ? ` (skipped: ${reason})` : ''}`, () =>
      body(db),
    )
  }
}
