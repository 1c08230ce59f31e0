import { openStorage } from '@workgraph/kysely'
import { describe, expect, it } from 'vitest'
import { DATABASES, skipReason } from '../support/databases.ts'

const postgres = DATABASES.find((d) => d.name === 'postgres')!
const reason = skipReason(postgres)

describe.skipIf(Boolean(reason))(
  `a transaction aborted as a deadlock victim [postgres]${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    it('runs again, so both of two transactions taking two locks in opposite orders commit', async () => {
      const target = await postgres.fresh()
      const storage = await openStorage({
        url: target.url,
        ...(target.schema ? { schema: target.schema } : {}),
      })
      try {
        let runs = 0
        let holding = 0
        const bothHold = async () => {
          holding++
          while (holding < 2) await new Promise((resolve) => setTimeout(resolve, 5))
        }
        const takeInOrder = (first: string, second: string) =>
          storage.transaction(async (store) => {
            runs++
            await store.locks.acquire(first)
            // Only the first attempts meet here: each holds one lock and then asks for the other's.
            if (runs <= 2) await bothHold()
            await store.locks.acquire(second)
            return `${first}${second}`
          })
        const answers = await Promise.all([takeInOrder('a', 'b'), takeInOrder('b', 'a')])
        expect(answers).toEqual(['ab', 'ba'])
        // Postgres aborted one of them to break the deadlock; it ran a second time and committed.
        expect(runs).toBe(3)
      } finally {
        await storage.close()
        await target.drop()
      }
    })
  },
)
