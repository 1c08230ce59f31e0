import { connect } from '@workgraph/kysely'
import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { compiledOnce, runCompiled } from '../../adapters/kysely/src/driver/fast-path.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/**
 * A hot query is built and compiled once per shape, then only run: in a transaction as outside one.
 * Kysely hands every transaction a copy of the plugin list, and the cache was keyed by the list, so
 * every write rebuilt and recompiled each of its statements (a create's CPU time nearly tripled).
 */
describeEachDatabase('compiledOnce', (db) => {
  it('builds a shape once across transactions and runs it with each call’s arguments', async () => {
    const target = await db.fresh()
    const { db: kysely } = await connect({
      url: target.url,
      ...(target.schema ? { schema: target.schema } : {}),
    })
    try {
      let builds = 0
      const shape = `test.compiled-once:${db.name}:${Math.random()}`
      const echo = (executor: typeof kysely, value: string) =>
        runCompiled(
          executor,
          compiledOnce(executor, shape, [value], ([v]) => {
            builds++
            return executor.selectNoFrom(sql<string>`cast(${v} as text)`.as('echoedValue'))
          }),
        )
      expect(await echo(kysely, 'outside')).toEqual([{ echoedValue: 'outside' }])
      const inside = await kysely
        .transaction()
        .execute(async (trx) => [await echo(trx, 'first'), await echo(trx, 'second')])
      const again = await kysely.transaction().execute((trx) => echo(trx, 'another transaction'))
      expect(inside).toEqual([[{ echoedValue: 'first' }], [{ echoedValue: 'second' }]])
      expect(again).toEqual([{ echoedValue: 'another transaction' }])
      expect(builds).toBe(1)
      // Another plugin set (here none) compiles the shape for itself: the SQL differs (no snake case).
      expect(await echo(kysely.withoutPlugins(), 'bare')).toEqual([{ echoedValue: 'bare' }])
      expect(builds).toBe(2)
    } finally {
      await kysely.destroy()
      await target.drop()
    }
  })
})
